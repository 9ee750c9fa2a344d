import { CapabilityError } from '../error/configuration-error.ts';
import { PolicyError } from '../workspace/policy-error.ts';
import type { WorkspaceLocation } from '../workspace/workspace-options.ts';
import { isWithin } from '../workspace/workspace-path.ts';
import { accessMode } from './sandbox-policy.ts';
import type { AccessMode, SandboxGrant } from './sandbox-policy.ts';

/** A grant with the workspace location its name points to. */
export interface ResolvedGrant extends SandboxGrant {
  readonly location: WorkspaceLocation;
}

/**
 * The grants of a sandbox or scope: its own, plus restrictive grants of its
 * parents that lie beneath them (read-only and runtime-only overlays), which
 * a scope keeps so that narrowing never exposes what the parent protected.
 */
export interface GrantSet {
  readonly own: readonly ResolvedGrant[];
  readonly overlays: readonly ResolvedGrant[];
}

/** What applies at one location. */
export interface EffectiveAccess {
  /** The access after every covering grant and overlay. */
  readonly access: AccessMode;
  /** Whether tools must not see the location (a runtime-only grant decides it). */
  readonly hidden: boolean;
  /** Where the deciding grant starts (its top cannot be read or written as a file). */
  readonly base: WorkspaceLocation;
}

/** Which named paths a scope keeps: names (inheriting the parent's access) or names with an access. */
export type GrantSelection = readonly string[] | Readonly<Record<string, AccessMode>>;

const ROOT_LOCATION: WorkspaceLocation = Object.freeze({ volume: 'root', path: '' });

/** Attaches locations to grants; a name the workspace does not have is a `PolicyError`. */
export function resolveGrants(grants: readonly SandboxGrant[], named: ReadonlyMap<string, WorkspaceLocation>): ResolvedGrant[] {
  return grants.map((grant) => ({ ...grant, location: locationOf(grant.name, named) }));
}

/**
 * The access at `location`: the deepest covering grant decides (ties go to
 * the more restrictive: runtime-only over file, read-only over read-write),
 * then overlays at least as deep can only restrict it further.
 */
export function effectiveAccess(set: GrantSet, location: WorkspaceLocation): EffectiveAccess | undefined {
  let decisive: ResolvedGrant | undefined;
  for (const grant of set.own) {
    if (!covers(grant, location)) continue;
    if (!decisive || deeper(grant, decisive) || (sameDepth(grant, decisive) && restrictive(grant, decisive))) decisive = grant;
  }
  if (!decisive) return undefined;
  let access = decisive.access;
  let hidden = decisive.visibility === 'runtime';
  for (const overlay of set.overlays) {
    if (!covers(overlay, location) || deeper(decisive, overlay)) continue;
    if (overlay.visibility === 'runtime') hidden = true;
    if (overlay.access === 'read_only') access = 'read_only';
  }
  return { access, hidden, base: decisive.location };
}

/** Grants and overlays that lie strictly beneath `location`. */
export function grantsBeneath(set: GrantSet, location: WorkspaceLocation): ResolvedGrant[] {
  return [...set.own, ...set.overlays].filter(
    (grant) => grant.location.volume === location.volume && grant.location.path !== location.path && isWithin(grant.location.path, location.path),
  );
}

/**
 * Narrows `parent` to the selected names. A name the parent does not expose
 * with the same visibility, or a read-write request where the parent is
 * read-only, is a `CapabilityError`: a scope never widens its parent.
 */
export function narrowGrants(
  parent: GrantSet,
  selection: { files?: GrantSelection; runtimePaths?: GrantSelection },
  named: ReadonlyMap<string, WorkspaceLocation>,
): GrantSet {
  const own: ResolvedGrant[] = [
    ...select(parent, selection.files, 'files', named),
    ...select(parent, selection.runtimePaths, 'runtime', named),
  ];
  const overlays = [...parent.own, ...parent.overlays].filter(
    (grant) =>
      !own.includes(grant) &&
      (grant.visibility === 'runtime' || grant.access === 'read_only') &&
      own.some((selected) => covers(selected, grant.location)),
  );
  return { own, overlays: [...new Set(overlays)] };
}

function select(
  parent: GrantSet,
  selection: GrantSelection | undefined,
  visibility: SandboxGrant['visibility'],
  named: ReadonlyMap<string, WorkspaceLocation>,
): ResolvedGrant[] {
  if (selection === undefined) return parent.own.filter((grant) => grant.visibility === visibility);
  const label = visibility === 'files' ? 'files' : 'runtimePaths';
  if (typeof selection !== 'object' || selection === null) throw new PolicyError(`sandbox scope ${label} must be a list or an object`);
  const entries: Array<[string, AccessMode | undefined]> = Array.isArray(selection)
    ? selection.map((name: string) => [name, undefined])
    : Object.entries(selection).map(([name, access]) => [name, accessMode(access, label)]);
  return entries.map(([name, requested]) => {
    const location = locationOf(name, named);
    const existing = parent.own.find((grant) => grant.name === name && grant.visibility === visibility);
    const inherited = existing
      ? effectiveAccess({ own: [existing], overlays: parent.overlays }, location)
      : effectiveAccess(parent, location);
    if (!inherited || (!existing && inherited.hidden !== (visibility === 'runtime'))) {
      throw new CapabilityError('sandbox scope cannot expose a path outside its parent');
    }
    if (requested === 'read_write' && inherited.access === 'read_only') {
      throw new CapabilityError('sandbox scope cannot make a read-only mount writable');
    }
    const access = requested ?? inherited.access;
    if (existing && existing.access === access) return existing;
    return { name, access, visibility, location };
  });
}

function locationOf(name: string, named: ReadonlyMap<string, WorkspaceLocation>): WorkspaceLocation {
  if (typeof name !== 'string') throw new PolicyError('sandbox grants must name workspace paths');
  if (name === 'root') return ROOT_LOCATION;
  const location = named.get(name);
  if (!location) throw new PolicyError(`sandbox grant names an unknown workspace path: ${name}`);
  return location;
}

function covers(grant: ResolvedGrant, location: WorkspaceLocation): boolean {
  return grant.location.volume === location.volume && isWithin(location.path, grant.location.path);
}

function deeper(left: ResolvedGrant, right: ResolvedGrant): boolean {
  return left.location.path.length > right.location.path.length;
}

function sameDepth(left: ResolvedGrant, right: ResolvedGrant): boolean {
  return left.location.path.length === right.location.path.length;
}

function restrictive(candidate: ResolvedGrant, current: ResolvedGrant): boolean {
  if (candidate.visibility !== current.visibility) return candidate.visibility === 'runtime';
  return candidate.access === 'read_only' && current.access === 'read_write';
}
