const OWN_WORDING = /^\$\S* (?:is required|is not allowed|must .+|has an invalid format|has an invalid schema pattern|has an unresolvable schema reference)$/;

/**
 * The validation issues safe to show the model in a repair request: the
 * validator's own wording about schema-declared paths. Issues that would echo
 * a model-chosen property name, or a schema library's message (which may
 * quote the value), are summarised without it; fixed texts pass unchanged.
 */
export function modelFacingIssues(issues: readonly string[], declaredNames: ReadonlySet<string>): string[] {
  const safe = new Set<string>();
  for (const issue of issues) {
    if (!issue.startsWith('$')) {
      safe.add(issue);
      continue;
    }
    const path = issue.slice(0, issue.indexOf(' ') < 0 ? issue.length : issue.indexOf(' '));
    const names = [...path.matchAll(/\.([^.[\]]+)/g)].map((match) => match[1]!);
    const declared = names.every((name) => declaredNames.has(name));
    if (declared && OWN_WORDING.test(issue)) safe.add(issue);
    else if (!declared) safe.add('the result contains a property the schema does not declare');
    else safe.add(`${path} does not satisfy the schema`);
  }
  return [...safe];
}
