/** The global name the host functions sit under until the bootstrap captures and deletes them. */
export const HOST_GLOBAL = '__ghostlight_host';

/**
 * The guest-side prelude, evaluated before the program in every fresh
 * context. It captures the host functions and the intrinsics it relies on
 * before any program code runs (so a program that tampers with `Promise`,
 * `JSON` or `Map` only breaks itself), defines `tools` (a frozen,
 * null-prototype object: never thenable), `ALL_TOOLS`, `text`, `exit` and
 * `input` as locked globals, and returns the control object the host drives
 * (`deliver`, `encode`, `runModule`).
 *
 * The seeds' forbidden globals (`console`, `process`, `require`, `fetch`,
 * `WebAssembly`, `ArrayBuffer`, `DataView`, `Atomics`, typed arrays…) do not
 * exist: QuickJS has none of the host ones and the context is created without
 * the TypedArrays intrinsic.
 *
 * It is written compactly on purpose: QuickJS compiles it for every program,
 * at roughly 0.1 ms per KB.
 */
export function bootstrapSource(tools: ReadonlyArray<{ name: string; description: string }>, input: string | undefined): string {
  const definitions = JSON.stringify(tools.map(({ name, description }) => ({ name, description })));
  const inputLiteral = input === undefined ? 'undefined' : JSON.stringify(input);
  return `(()=>{"use strict";
const g=globalThis,h=g.${HOST_GLOBAL};delete g.${HOST_GLOBAL};
const hc=h.call,ht=h.text,hx=h.exit,D=${definitions},I=${inputLiteral},A=Reflect.apply,S=JSON.stringify,J=JSON.parse,O=Object,F=O.freeze,C=O.create,DP=O.defineProperty,P=Promise,E=Error,T=String,M=Map.prototype,mg=M.get,ms=M.set,md=M.delete,pr=P.resolve,pt=P.prototype.then,q=new Map,X=F(C(null));
let n=0;
const en=v=>v===undefined?undefined:A(S,undefined,[v]);
const sh=v=>{if(typeof v==="string")return v;if(v===undefined)return"undefined";if(typeof v==="bigint")return T(v);let e;try{e=en(v)}catch{}return e===undefined?T(v):e};
const iv=(k,a)=>new P((res,rej)=>{let e;try{e=en(a)}catch{rej(new E("Tool arguments must be JSON-serializable"));return}const id=++n;A(ms,q,[id,{res,rej}]);const r=hc(id,T(k),e);if(r!==undefined){A(md,q,[id]);rej(new E(r))}});
const t=C(null),c=[];
for(let i=0;i<D.length;i++){const k=D[i].name;DP(t,k,{value:a=>iv(k,a),enumerable:true});c[i]=F({name:k,description:D[i].description})}
DP(t,"call",{value:(k,a)=>iv(k,a)});F(t);F(c);
const inp=I===undefined?undefined:J(I),L=v=>({value:v});
O.defineProperties(g,{tools:L(t),ALL_TOOLS:L(c),text:L(v=>{ht(sh(v))}),exit:L(v=>{let e;try{e=en(v)}catch{}hx(e);throw X}),input:L(inp)});
return F({deliver:(id,ok,p)=>{const x=A(mg,q,[id]);if(x===undefined)return;A(md,q,[id]);if(!ok){x.rej(new E(p));return}let v;try{v=p===undefined?undefined:J(p)}catch(e){x.rej(e);return}x.res(v)},
encode:en,
runModule:ns=>A(pt,A(pr,P,[ns]),[x=>{const f=typeof x.run==="function"?x.run:typeof x.default==="function"?x.default:undefined;return f===undefined?undefined:f({input:inp,tools:t})}])});
})()`;
}
