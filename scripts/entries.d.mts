/** Each public subpath (`.`, `./code-mode`, …) and the source file it is built from. */
export declare const entries: Readonly<Record<string, string>>;
/** The package's private imports and their source per condition. */
export declare const privateImports: Readonly<Record<string, Readonly<Record<string, string>>>>;
/** The specifier users import for a subpath. */
export declare function specifierOf(subpath: string): string;
/** The built file of a source file. */
export declare function distOf(source: string): string;
/** Aliases from package specifiers to sources, longest first. */
export declare function sourceAliases(root: string, runtime?: 'default' | 'workerd' | 'node' | 'browser'): Record<string, string>;
