import type { Example } from './example';
import { helpCenterExample } from './help-center';
import { dataTaskExample } from './data-task';
import { fileOrganiserExample } from './file-organiser';
import { skillsExample } from './skills';
import { triageExample } from './triage';

/** The examples the playground offers, in order. */
export const examples: readonly Example[] = [helpCenterExample, fileOrganiserExample, dataTaskExample, skillsExample, triageExample];
