/** The layers of src/, lowest first. */
export declare const LAYERS: ReadonlyArray<{ name: string; folders: string[] }>;
/** The capabilities each capability may import. */
export declare const CAPABILITY_DEPENDENCIES: Readonly<Record<string, string[]>>;
/** Every import in src/ that breaks the rules, as `file: problem` lines. */
export declare function checkLayers(): string[];
