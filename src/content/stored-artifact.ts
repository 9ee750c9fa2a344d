/** An artifact written to the run's storage: its reference and facts, without the bytes. */
export interface StoredArtifact {
  readonly kind: 'stored';
  /** Where it is, e.g. `workspace://artifacts/<run>-<sha256>-report.csv`. */
  readonly reference: string;
  /** The sanitised file name it was stored under (without the unique prefix). */
  readonly name: string;
  readonly mediaType: string;
  /** Its size in bytes. */
  readonly bytes: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
}
