import type { Example } from './example';
import { helpCenterExample } from './help-center';

/** The examples the playground offers, in order. */
export const examples: readonly Example[] = [helpCenterExample];
