import { BUILTIN_BOUNDS_SOURCE } from './builtin-bounds.ts';

/** The global name the host functions sit under until the bootstrap captures and deletes them. */
export const HOST_GLOBAL = '__ghostlight_host';

/** What the bootstrap needs from the program's request. */
export interface BootstrapOptions {
  readonly tools: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  readonly input: string | undefined;
  /** The most characters of any text that crosses to the host (output, values, errors). */
  readonly clipChars: number;
  /** A seeded `Math.random` and a clock from `clock` (1 ms per reading), for programs that may be replayed. */
  readonly determinism?: { readonly seed: number; readonly clock: number } | undefined;
}

/**
 * The guest code that makes `Math.random` a PRNG (mulberry32) seeded with
 * `seed` and `Date` a clock that starts at `clock` and advances 1 ms per
 * reading (`Date.now()`, `new Date()`, `Date()`): what a replay needs to see
 * the values the first run saw.
 */
function determinismSource(determinism: BootstrapOptions['determinism']): string {
  if (!determinism) return '';
  const seed = Math.trunc(determinism.seed) >>> 0;
  const clock = Math.trunc(determinism.clock);
  return `{let s=${seed},k=${clock};const R=Date,nw=()=>k++;
DP(Math,"random",{value:()=>{s=s+1831565813|0;let z=Math.imul(s^s>>>15,1|s);z=z+Math.imul(z^z>>>7,61|z)^z;return((z^z>>>14)>>>0)/4294967296},writable:true,configurable:true});
const VD=new Proxy(R,{construct:(t,a,n)=>Reflect.construct(t,a.length===0?[nw()]:a,n),apply:()=>T(new R(nw()))});
DP(R,"now",{value:nw,writable:true,configurable:true});DP(R.prototype,"constructor",{value:VD,writable:true,configurable:true});DP(g,"Date",{value:VD,writable:true,configurable:true});}
`;
}

/**
 * The guest-side prelude, evaluated before the program in every fresh
 * context. It captures the host functions and the intrinsics it relies on
 * before any program code runs (so a program that tampers with `Promise`,
 * `JSON` or `Map` only breaks itself), defines `tools` (a frozen,
 * null-prototype object: never thenable), `ALL_TOOLS`, `text`, `exit` and
 * `input` as locked globals, installs the builtin bounds
 * ({@link BUILTIN_BOUNDS_SOURCE}), and returns the control object the host
 * drives (`deliver`, `encode`, `runModule`, `describe`).
 *
 * Everything that crosses to the host as text (`text` output, the encoded
 * return or `exit` value) is cut to `clipChars` characters inside the guest,
 * so the host never copies more than it is about to refuse.
 *
 * The seeds' forbidden globals (`console`, `process`, `require`, `fetch`,
 * `WebAssembly`, `ArrayBuffer`, `DataView`, `Atomics`, typed arrays…) do not
 * exist: QuickJS has none of the host ones and the context is created without
 * the TypedArrays intrinsic.
 *
 * It is written compactly on purpose: QuickJS compiles it for every program,
 * at roughly 0.1 ms per KB.
 */
export function bootstrapSource(options: BootstrapOptions): string {
  const definitions = JSON.stringify(options.tools.map(({ name, description }) => ({ name, description })));
  const inputLiteral = options.input === undefined ? 'undefined' : JSON.stringify(options.input);
  return `(()=>{"use strict";
const g=globalThis,h=g.${HOST_GLOBAL};delete g.${HOST_GLOBAL};
const hc=h.call,ht=h.text,hx=h.exit,hw=h.work,D=${definitions},I=${inputLiteral},N=${Math.max(1, Math.trunc(options.clipChars))},A=Reflect.apply,S=JSON.stringify,J=JSON.parse,O=Object,F=O.freeze,C=O.create,DP=O.defineProperty,P=Promise,E=Error,T=String,M=Map.prototype,mg=M.get,ms=M.set,md=M.delete,pr=P.resolve,pt=P.prototype.then,q=new Map,X=F(C(null)),
cs=String.prototype.slice,te=String.prototype.trimEnd,ots=O.prototype.toString,bt0=BigInt.prototype.toString;
let n=0;
const cl=s=>s.length>N?A(cs,s,[0,N]):s;
const en=v=>v===undefined?undefined:A(S,undefined,[v]);
const bg=v=>{const x=A(bt0,v,[16]);return x.length>4096?"BigInt of about "+x.length*4+" bits":T(v)};
const sh=v=>{if(typeof v==="string")return v;if(v===undefined)return"undefined";if(typeof v==="bigint")return bg(v);let e;try{e=en(v)}catch{}return e===undefined?T(v):e};
const iv=(k,a)=>new P((res,rej)=>{let e;try{e=en(a)}catch{rej(new E("Tool arguments must be JSON-serializable"));return}const id=++n;A(ms,q,[id,{res,rej}]);const r=hc(id,T(k),e);if(r!==undefined){A(md,q,[id]);rej(new E(r))}});
const t=C(null),c=[];
for(let i=0;i<D.length;i++){const k=D[i].name;DP(t,k,{value:a=>iv(k,a),enumerable:true});c[i]=F({name:k,description:D[i].description})}
DP(t,"call",{value:(k,a)=>iv(k,a)});F(t);F(c);
const inp=I===undefined?undefined:J(I),L0=v=>({value:v});
O.defineProperties(g,{tools:L0(t),ALL_TOOLS:L0(c),text:L0(v=>{ht(cl(sh(v)))}),exit:L0(v=>{let e;try{e=en(v)}catch{}hx(e===undefined?e:cl(e));throw X}),input:L0(inp)});
const rd=(e,k)=>{try{const v=e[k];return typeof v==="string"?cl(v):undefined}catch{}};
const ds=e=>{if(typeof e==="bigint")return bg(e);if(e===null||typeof e!=="object"&&typeof e!=="function")return cl(T(e));
const m=rd(e,"message");if(m!==undefined){const s=rd(e,"stack"),k=rd(e,"name");return cl((k===undefined?"Error":k)+": "+m+(s?"\\n"+A(te,s,[]):""))}
let j;try{j=en(e)}catch{}if(j===undefined||j==="{}"){const k=A(ots,e,[]);return k==="[object Object]"&&j!==undefined?j:k}return cl(j)};
${determinismSource(options.determinism)}${BUILTIN_BOUNDS_SOURCE}
return F({deliver:(id,ok,p)=>{const x=A(mg,q,[id]);if(x===undefined)return;A(md,q,[id]);if(!ok){x.rej(new E(p));return}let v;try{v=p===undefined?undefined:J(p)}catch(e){x.rej(e);return}x.res(v)},
encode:v=>{const e=en(v);return e===undefined?e:cl(e)},describe:ds,
runModule:ns=>A(pt,A(pr,P,[ns]),[x=>{const f=typeof x.run==="function"?x.run:typeof x.default==="function"?x.default:undefined;return f===undefined?undefined:f({input:inp,tools:t})}])});
})()`;
}
