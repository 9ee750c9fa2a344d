/**
 * Work units of the builtin bounds: 10,000 units are about one millisecond of
 * QuickJS builtin work on the reference machine (BENCHMARKS.md, "Code mode
 * under attack"), measured per kind of work: an element of an array-like
 * visited by an array method costs 1 unit, a character copied or converted
 * 1/8, a character compared while searching 1/128, a promise a combinator
 * takes 16.
 */
export const WORK_UNITS_PER_MS = 10_000;

/**
 * The guest half of the CPU bounds, evaluated inside the bootstrap before any
 * program code (it uses the bootstrap's captured intrinsics: `A` is
 * `Reflect.apply`, `T` is `String`, `DP` is `Object.defineProperty`).
 *
 * QuickJS checks its interrupt handler every 10,000 bytecode branches and
 * calls, never inside a builtin, so one builtin call runs to its end whatever
 * it costs (`Array.prototype.includes` over an array-like of length 2^53−1
 * never returns), and a loop of expensive calls reaches the handler only after
 * 10,000 of them. These wrappers replace the builtins whose cost grows with
 * their input. Each estimates its work from sizes it can read in constant
 * time (lengths, bit sizes) and charges it to the host (`hw`): a call whose
 * estimate alone is more than twice what is left of the CPU budget is refused
 * before it runs (a `RangeError`, and the program is stopped with the CPU
 * limit at the next check); smaller charges accumulate, and every ~1 ms of
 * estimated work the host checks the budget, so a loop of builtin calls stops
 * on time too. Searches for long needles in long strings run as a window
 * search with candidate checks, never QuickJS's quadratic one; `flat` and
 * `flatMap` run in JavaScript (their inner arrays are charged as they are
 * reached); `Iterator.prototype.drop` with a huge count skips in JavaScript.
 *
 * The originals are reachable only from this closure. What the bounds cannot
 * cover (operators and syntax over huge values: `===`, spread, BigInt
 * arithmetic) is listed in docs/code-mode.md; the Node and browser engines
 * terminate their worker for those.
 */
export const BUILTIN_BOUNDS_SOURCE = `
const R=Reflect,GD=O.getOwnPropertyDescriptor,RE=RangeError,TE=TypeError,MF=Math.floor,LG=Math.log2,IA=Array.isArray,RG=RegExp,
SP=String.prototype,AP=Array.prototype,sio=SP.indexOf,slio=SP.lastIndexOf,ssl=SP.slice,
sym=Symbol,SMa=sym.match,SRe=sym.replace,SSp=sym.split,SCo=sym.isConcatSpreadable,SSc=sym.species,SPr=sym.toPrimitive,
RP=RG.prototype,srcG=GD(RP,"source").get,glG=GD(RP,"global").get,stG=GD(RP,"sticky").get,BP=BigInt.prototype,bts=BP.toString,bvo=BP.valueOf,
BN=Number,ML=9007199254740991,FL=10000,SF=4194304,WIN=65536,ws=new Map,wsg=M.get,wss=M.set;
let wa=0,rc=0;
const CPU=()=>new RE("code-mode program exceeded its CPU limit");
const H=(u,pre)=>{const r=hw(u,pre);if(r<0)throw CPU();rc=r};
const KP=u=>{if(u>rc)H(u,1)};
const KA=u=>{wa+=u;if(wa>=FL){const x=wa;wa=0;H(x,0)}};
const K=u=>{KP(u);KA(u)};
const L=o=>{const n=+o.length;return n>0?(n<ML?MF(n):ML):0};
const ob=v=>v!==null&&(typeof v==="object"||typeof v==="function");
const ti=v=>{const n=+v;return n!==n?0:n===1/0||n===-1/0?n:n<0?-MF(-n):MF(n)};
const wrap=(o,k,f)=>{const d=GD(o,k);if(!d||typeof d.value!=="function")return;const x=d.value;let w=A(wsg,ws,[x]);
if(w===undefined){w=f(x);DP(w,"name",{value:x.name});DP(w,"length",{value:x.length});A(wss,ws,[x,w])}
DP(o,k,{value:w,writable:d.writable,enumerable:d.enumerable,configurable:d.configurable})};
const arr=(k,c)=>wrap(AP,k,x=>({m(...a){if(this!=null)K(c?c(this,a):L(this));return A(x,this,a)}}).m);
for(const k of["copyWithin","every","fill","filter","find","findIndex","findLast","findLastIndex","forEach","includes","indexOf","join","lastIndexOf","map","reduce","reduceRight","reverse","shift","slice","some","splice","toLocaleString","toReversed","toSpliced","unshift","with"])arr(k);
const srt=(o,a)=>{const n=L(o);return a[0]===undefined&&n>1?n+MF(n*LG(n)/3):n};arr("sort",srt);arr("toSorted",srt);
const spr=e=>{if(!ob(e))return false;const s=e[SCo];return s!==undefined?!!s:IA(e)};
arr("concat",(o,a)=>{let n=spr(o)?L(o):1;for(let i=0;i<a.length;i++)n+=spr(a[i])?L(a[i]):1;return n});
const cdp=(o,i,v)=>{DP(o,i,{value:v,writable:true,enumerable:true,configurable:true})};
const asc=o=>{if(!IA(o))return[];let C=o.constructor;if(ob(C)){C=C[SSc];if(C===null)C=undefined}if(C===undefined)return[];if(typeof C!=="function")throw new TE("Array species is not a constructor");return new C(0)};
const fi=(t,s,n,at,d,f,th)=>{for(let i=0;i<n;i++){if(!(i in s))continue;let e=s[i];if(f)e=A(f,th,[e,i,s]);
if(d>0&&IA(e)){const m=L(e);K(m);at=fi(t,e,m,at,d-1)}else{if(at>=ML)throw new TE("Array too long");cdp(t,at,e);at++}}return at};
wrap(AP,"flat",()=>({flat(d){const o=O(this),n=L(o);K(n);const dd=d===undefined?1:ti(d),t=asc(o);fi(t,o,n,0,dd<0?0:dd);return t}}).flat);
wrap(AP,"flatMap",()=>({flatMap(f,th){const o=O(this),n=L(o);if(typeof f!=="function")throw new TE("flatMap mapper is not a function");K(n);const t=asc(o);fi(t,o,n,0,1,f,th);return t}}).flatMap);
wrap(Array,"from",x=>({from(...a){const s=a[0];if(ob(s)&&s.length!==undefined)K(L(s));return A(x,this,a)}}).from);
for(const k of["all","allSettled","any","race"])wrap(P,k,x=>({m(...a){const s=a[0];if(ob(s)&&s.length!==undefined)K(L(s)*16);return A(x,this,a)}}).m);
const str=v=>typeof v==="string"?v:T(v);
for(const k of["padEnd","padStart","repeat","concat","normalize","toLowerCase","toUpperCase","toLocaleLowerCase","toLocaleUpperCase","trim","trimStart","trimEnd","trimLeft","trimRight","toWellFormed","isWellFormed","localeCompare"])
wrap(SP,k,x=>({m(...a){if(this==null)return A(x,this,a);const s=str(this);KP(s.length/8);const r=A(x,s,a);KA(((typeof r==="string"?r.length:0)+s.length)/8);return r}}).m);
const fix=(s,t,p)=>{const n=s.length,m=t.length;
if(m<=32||(n-p)*m<=SF){const q=m<32?m:32;KP((n-p)*q/128);const r=A(sio,s,[t,p]);KA(((r<0?n:r+m)-p)*q/128);return r}
const pre=A(ssl,t,[0,32]);
for(;;){if(p>n-m)return-1;const e=p+WIN+32<n?p+WIN+32:n,w=A(ssl,s,[p,e]);KA((e-p)/8);let i=0;
for(;;){const j=A(sio,w,[pre,i]);KA(((j<0?w.length:j)-i+32)/4);if(j<0)break;const c=p+j;if(c>n-m)return-1;KA(m/128);if(A(ssl,s,[c,c+m])===t)return c;i=j+1}
if(e===n)return-1;p=e-31}};
const lix=(s,t,p)=>{const m=t.length;if(m<=32||(p+1)*m<=SF){const q=m<32?m:32;KP((p+1)*q/128);const r=A(slio,s,[t,p]);KA((p+1-(r<0?0:r))*q/128);return r}
const pre=A(ssl,t,[0,32]);let e=p+32;
for(;;){if(e<32)return-1;const b=e-WIN>0?e-WIN:0,w=A(ssl,s,[b,e]);KA((e-b)/8);let i=w.length-32;
while(i>=0){const j=A(slio,w,[pre,i]);KA(((j<0?i+1:i-j)+32)/4);if(j<0)break;const c=b+j;KA(m/128);if(A(ssl,s,[c,c+m])===t)return c;i=j-1}
if(b===0)return-1;e=b+31}};
const isr=v=>{if(!ob(v))return false;const f=v[SMa];return f!==undefined?!!f:v instanceof RG};
const clp=(n,p)=>{const q=ti(p);return q<0?0:q>n?n:q};
wrap(SP,"indexOf",x=>({indexOf(...a){if(this==null)return A(x,this,a);const s=str(this),t=str(a[0]);return fix(s,t,clp(s.length,a[1]))}}).indexOf);
wrap(SP,"includes",x=>({includes(...a){if(this==null||isr(a[0]))return A(x,this,a);const s=str(this),t=str(a[0]);return fix(s,t,clp(s.length,a[1]))>=0}}).includes);
wrap(SP,"lastIndexOf",x=>({lastIndexOf(...a){if(this==null)return A(x,this,a);const s=str(this),t=str(a[0]),n=s.length,m=t.length,v=BN(a[1]),q=v!==v?1/0:ti(v),st=q<0?0:q>n?n:q;
return m>n?-1:lix(s,t,st>n-m?n-m:st)}}).lastIndexOf);
const subst=(mt,s,c,r)=>{if(A(sio,r,["$"])<0)return r;let o="";for(let i=0;i<r.length;i++){const ch=r[i];if(ch==="$"&&i+1<r.length){const d=r[i+1];
if(d==="$"){o+="$";i++;continue}if(d==="&"){o+=mt;i++;continue}if(d==="\`"){o+=A(ssl,s,[0,c]);i++;continue}if(d==="'"){o+=A(ssl,s,[c+mt.length]);i++;continue}}o+=ch}return o};
const hasm=(v,y)=>v!=null&&v[y]!=null;
const rep=(x,all)=>function(...a){if(this==null)return A(x,this,a);const sv=a[0],rv=a[1];if(hasm(sv,SRe))return A(x,this,a);
const s=str(this),t=str(sv),fn=typeof rv==="function",r=fn?rv:str(rv),n=s.length,m=t.length;KP(n/8);
if(m<=32||n*m<=SF){const o=A(x,s,[t,r]);KA(((n+o.length)/8)+((m<32?m:32)*n/128));return o}
let o="",e=0,c=fix(s,t,0);while(c>=0){o+=A(ssl,s,[e,c])+(fn?str(A(r,undefined,[t,c,s])):subst(t,s,c,r));e=c+m;if(!all)break;c=fix(s,t,e)}
o+=A(ssl,s,[e]);KA(o.length/8);return o};
wrap(SP,"replace",x=>{const f=rep(x,false);return({replace(...a){return A(f,this,a)}}).replace});
wrap(SP,"replaceAll",x=>{const f=rep(x,true);return({replaceAll(...a){return A(f,this,a)}}).replaceAll});
wrap(SP,"split",x=>({split(...a){if(this==null||hasm(a[0],SSp))return A(x,this,a);const sv=a[0];
const s=str(this),lim=a[1]===undefined?4294967295:BN(a[1])>>>0,t=str(sv),n=s.length,m=t.length;KP(n/8);
if(sv===undefined||m<=32||n*m<=SF){const o=A(x,s,[sv===undefined?sv:t,lim]);KA((n/8)+o.length+((m<32?m:32)*n/128));return o}
const o=[];if(lim===0)return o;let e=0,c=fix(s,t,0);while(c>=0){cdp(o,o.length,A(ssl,s,[e,c]));if(o.length===lim)return o;e=c+m;c=fix(s,t,e)}
cdp(o,o.length,A(ssl,s,[e]));KA(o.length);return o}}).split);
wrap(RP,"exec",x=>({exec(...a){const s=str(a[0]),n=s.length;if(n<=256)return A(x,this,[s]);
const l=A(glG,this,[])||A(stG,this,[])?ti(this.lastIndex):0,li=l<0?0:l>n?n:l;KP((n-li)*A(srcG,this,[]).length/128);
const r=A(x,this,[s]);KA(((r===null?n:r.index+T(r[0]).length)-li)/8);return r}}).exec);
const prim=v=>{if(!ob(v))return v;const f=v[SPr];if(f!=null)return A(f,v,["number"]);let p=v.valueOf();if(ob(p))p=v.toString();return p};
const bits=b=>A(bts,b,[16]).length*4;
const big=t=>typeof t==="bigint"?t:A(bvo,t,[]);
wrap(BP,"toString",x=>({toString(...a){const b=big(this),z=bits(b);K(MF(z*z/32768));return A(x,b,a)}}).toString);
wrap(BP,"toLocaleString",x=>({toLocaleString(...a){const b=big(this),z=bits(b);K(MF(z*z/32768));return A(x,b,a)}}).toLocaleString);
const BI=g.BigInt,BW=({BigInt(v){const p=prim(v);if(typeof p==="string")K(MF(p.length*p.length/32768));return BI(p)}}).BigInt;
for(const k of["asUintN","asIntN"]){const f=BI[k];DP(BW,k,{value:({[k](b,v){K(MF(ti(b)/32));return A(f,BI,[b,v])}})[k],writable:true,configurable:true})}
DP(BW,"prototype",{value:BP});DP(BW,"length",{value:1});DP(BP,"constructor",{value:BW,writable:true,configurable:true});DP(g,"BigInt",{value:BW,writable:true,configurable:true});
const JS=g.JSON,jst=JS.stringify,jpa=JS.parse;
DP(JS,"stringify",{value:({stringify(...a){const r=A(jst,JS,a);if(typeof r==="string")KA(r.length/8);return r}}).stringify,writable:true,configurable:true});
DP(JS,"parse",{value:({parse(...a){const t=str(a[0]);K(t.length/4);a[0]=t;return A(jpa,JS,a)}}).parse,writable:true,configurable:true});
for(const[o,k]of[[O,"keys"],[O,"values"],[O,"entries"],[O,"getOwnPropertyNames"],[O,"getOwnPropertySymbols"],[R,"ownKeys"]])
wrap(o,k,x=>({m(...a){const r=A(x,this,a);KA(r.length);return r}}).m);
wrap(O,"fromEntries",x=>({fromEntries(...a){const s=a[0];if(ob(s)&&s.length!==undefined)K(L(s)*2);return A(x,this,a)}}).fromEntries);
const IP=g.Iterator&&g.Iterator.prototype;
if(IP){const skip=function*(it,c){const nx=it.next;while(c>0){c--;if(A(nx,it,[]).done)return}for(;;){const r=A(nx,it,[]);if(r.done)return;yield r.value}};
wrap(IP,"drop",x=>({drop(c){if(!ob(this))return A(x,this,[c]);const v=BN(c);if(v!==v)throw new RE("Iterator.prototype.drop: the count is not a number");const k=ti(v);if(k<0)throw new RE("Iterator.prototype.drop: the count is negative");return k>65536?skip(this,k):A(x,this,[k])}}).drop)}
`;
