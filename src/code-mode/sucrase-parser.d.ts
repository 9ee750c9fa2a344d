/** sucrase's parser alone, from its ES module build (sucrase has no "exports" map; the types sit in dist/types). */
declare module 'sucrase/dist/esm/parser/index.js' {
  export * from 'sucrase/dist/types/parser/index.js';
}
