/** sucrase's parser bundled without its Flow and JSX plugins, as dist/code-mode/sucrase-loader.js ships it. */
export declare function bundleSucraseParser(): Promise<string>;
