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
 * on time too. String searches (QuickJS's is quadratic in the needle
 * length) are checked at their worst case before they run and charged for
 * what they scanned after; `flat` charges its inner arrays before it runs
 * and `flatMap` each array its callback returns; `Iterator.prototype.drop`
 * with a huge count skips in JavaScript.
 *
 * The originals are reachable only from this closure. What the bounds cannot
 * cover (operators and syntax over huge values: `===`, spread, BigInt
 * arithmetic) is listed in docs/code-mode.md; the Node and browser engines
 * terminate their worker for those.
 */
export const BUILTIN_BOUNDS_SOURCE = `const GD=O.getOwnPropertyDescriptor,RE=RangeError,MF=Math.floor,IA=Array.isArray,SP=String.prototype,AP=Array.prototype,Y=Symbol,
RP=RegExp.prototype,rg=k=>GD(RP,k).get,BP=BigInt.prototype,bts=BP.toString,bvo=BP.valueOf,BN=Number,ML=2**53-1,ws=new Map,JS=g.JSON;
let wa=0,rc=0;
const H=(u,p)=>{const r=hw(u,p);if(r<0)throw RE("code-mode program exceeded its CPU limit");rc=r},
KP=u=>{if(u>rc)H(u,1)},KA=u=>{wa+=u;if(wa>=1e4){const x=wa;wa=0;H(x,0)}},K=u=>{KP(u);KA(u)},
L=o=>{const n=+o.length;return n>0?(n<ML?MF(n):ML):0},ob=v=>v!==null&&(typeof v=="object"||typeof v=="function"),
ti=v=>{const n=+v;return n!==n?0:n<0?-MF(-n):MF(n)},str=v=>typeof v=="string"?v:T(v),al=s=>ob(s)&&s.length!==undefined?L(s):0,
W=(o,k,f)=>{const d=GD(o,k);if(!d||typeof d.value!="function")return;const x=d.value;let w=A(mg,ws,[x]);
if(!w){w=f(x);DP(w,"name",{value:x.name});DP(w,"length",{value:x.length});A(ms,ws,[x,w])}d.value=w;DP(o,k,d)},
Z=(o,ks,c,p)=>{for(const k of ks.split(","))W(o,k,x=>({m(...a){const s=o==SP&&this!=null?str(this):this;if(s!=null)K(c(s,a));const r=A(x,s,a);if(p)KA(p(r));return r}}).m)},
rl=r=>r.length,sl=r=>typeof r=="string"?r.length/8:0,
spr=e=>{if(!ob(e))return false;const s=e[Y.isConcatSpreadable];return s!==undefined?!!s:IA(e)},
fs=(o,n,d)=>{let u=n;if(d>0)for(let i=0;i<n;i++){const e=o[i];if(IA(e))u+=fs(e,L(e),d-1)}return u},
srt=(o,a)=>{const n=L(o);return a[0]===undefined&&n>1?n+n*Math.log2(n)/3:n};
Z(AP,"copyWithin,every,fill,filter,find,findIndex,findLast,findLastIndex,forEach,includes,indexOf,join,lastIndexOf,map,reduce,reduceRight,reverse,shift,slice,some,splice,toLocaleString,toReversed,toSpliced,unshift,with",L);
Z(AP,"sort,toSorted",srt);Z(AP,"concat",(o,a)=>{let n=spr(o)?L(o):1;for(const e of a)n+=spr(e)?L(e):1;return n});
Z(AP,"flat",(o,a)=>{const n=L(o);K(n);return fs(O(o),n,a[0]===undefined?1:ti(a[0]))});
W(AP,"flatMap",x=>({m(f,...a){if(this!=null)K(L(this));return A(x,this,[typeof f=="function"?(...v)=>{const r=A(f,a[0],v);if(IA(r))K(L(r));return r}:f,...a])}}).m);
Z(Array,"from",(o,a)=>al(a[0]));Z(O,"fromEntries",(o,a)=>2*al(a[0]));Z(P,"all,allSettled,any,race",(o,a)=>16*al(a[0]));
Z(SP,"padEnd,padStart,repeat,concat,normalize,toLowerCase,toUpperCase,toLocaleLowerCase,toLocaleUpperCase,trim,trimStart,trimEnd,trimLeft,trimRight,toWellFormed,isWellFormed,localeCompare",s=>s.length/8,sl);
Z(JS,"parse",(o,a)=>str(a[0]).length/4);Z(JS,"stringify",()=>0,sl);Z(O,"keys,values,entries,getOwnPropertyNames,getOwnPropertySymbols",()=>0,rl);Z(Reflect,"ownKeys",()=>0,rl);
Z(BP,"toString,toLocaleString",b=>{const z=A(bts,typeof b=="bigint"?b:A(bvo,b,[]),[16]).length*4;return z*z/32768});
const isr=v=>{if(!ob(v))return false;const f=v[Y.match];return f!==undefined?!!f:v instanceof RegExp},hm=(v,y)=>v!=null&&v[y]!=null;
for(const k of["indexOf","includes","lastIndexOf","split","replace","replaceAll"]){const se=k[0]=="s"||k[0]=="r";
W(SP,k,x=>({m(...a){if(this==null||(se?hm(a[0],k=="split"?Y.split:Y.replace):k=="includes"&&isr(a[0])))return A(x,this,a);const s=str(this),t=str(a[0]),n=s.length,m=t.length,q=m<32?m:32;a[0]=t;
if(k=="split"){if(a[1]!==undefined)a[1]=BN(a[1])>>>0}else if(se){if(typeof a[1]!="function")a[1]=str(a[1])}else if(a.length>1)a[1]=BN(a[1]);
KP((n-m+1)*m/128+n/8);const r=A(x,s,a);KA(k=="indexOf"&&r>=0?(r+m)*q/128:n*q/128+(se?n/8+r.length/8:0));return r}}).m)}
W(RP,"exec",x=>({exec(...a){const s=str(a[0]),n=s.length;if(n<=256)return A(x,this,[s]);
const l=A(rg("global"),this,[])||A(rg("sticky"),this,[])?ti(this.lastIndex):0,li=l<0?0:l>n?n:l;KP((n-li)*A(rg("source"),this,[]).length/128);
const r=A(x,this,[s]);KA(((r===null?n:r.index+T(r[0]).length)-li)/8);return r}}).exec);
const BI=g.BigInt,BW=({BigInt(v){let p=v;if(ob(p)){const f=p[Y.toPrimitive];p=f!=null?A(f,v,["number"]):p.valueOf();if(ob(p))p=v.toString()}if(typeof p=="string")K(p.length*p.length/32768);return BI(p)}}).BigInt;
for(const k of["asUintN","asIntN","prototype","length"])DP(BW,k,GD(BI,k));DP(BP,"constructor",{value:BW,writable:true,configurable:true});DP(g,"BigInt",{value:BW,writable:true,configurable:true});
const IP=g.Iterator&&g.Iterator.prototype;
if(IP)W(IP,"drop",x=>({m(c){const k=BN(c);if(k>65536&&ob(this)){const it=this,nx=it.next;let i=MF(k);return(function*(){while(i-->0)if(A(nx,it,[]).done)return;for(;;){const r=A(nx,it,[]);if(r.done)return;yield r.value}})()}return A(x,this,[c])}}).m);
`;
