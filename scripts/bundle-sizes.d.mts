/** One measured program. */
export interface BundleSize {
  readonly name: string;
  readonly file: string;
  readonly what: string;
  /** Gzip KiB allowed, or null for a comparison program. */
  readonly budget: number | null;
  /** Minified JavaScript bytes. */
  readonly bytes: number;
  /** Gzip (level 9) JavaScript bytes. */
  readonly gzip: number;
  /** WebAssembly bytes, counted apart. */
  readonly wasmBytes: number;
  readonly packages: ReadonlyArray<readonly [string, number]>;
}
export declare const PROGRAMS: ReadonlyArray<{ name: string; file: string; what: string; budget: number | null }>;
export declare function measure(packageDir?: string): Promise<BundleSize[]>;
export declare function overBudget(results: readonly BundleSize[]): BundleSize[];
export declare function report(results: readonly BundleSize[]): string;
