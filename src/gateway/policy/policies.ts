/**
 * Gateway policies (`gateway.policies`): allow and deny rules on upstream servers and their tools,
 * per principal or scope, decided per request from `context.auth`.
 *
 * A rule **applies** to a request when its `principal` (globs over the token's `subject` or
 * `clientId`) and its `scope` (globs over any of the token's scopes) both match; a part left out
 * matches anyone, so a rule with neither applies to every request, and a request without auth
 * (an unprotected endpoint) is met only by rules with neither. `allow` and `deny` list patterns
 * (`pattern.ts`): `SERVER` (the whole server) or `SERVER__TOOL`, with `*` and `?`.
 *
 * The decision for a request and a target:
 * 1. no policies at all → allowed;
 * 2. a `deny` of an applicable rule names the target → refused (deny wins over allow);
 * 3. else, if some applicable rule has `allow` → allowed only when one of those allows names it;
 * 4. else (the applicable rules only deny, or none applies) → allowed.
 * So allows add up across the rules that apply (a rule for everyone and a rule for admins give
 * admins both lists), and a principal no rule names gets everything not denied to everyone: give a
 * rule without principal or scope to set what everyone else may reach.
 *
 * A whole-server item (a server's resources or prompts listed as such) is decided with the
 * server alone ({@link PolicySet.decideServer}): only a pattern naming the whole server allows or
 * denies it, a pattern naming one tool does not.
 */
import type { AuthInfo } from '../../server/auth-info.js';
import {
  checkKeys,
  checkSeparator,
  configProblem,
  isRecord,
  oneOrMany,
  optionalText,
  patternList,
  type ConfigSite,
} from './config-checks.js';
import { anyPatternMatches, globMatches, type PolicyTarget } from './pattern.js';

/** One rule as configured. */
export interface GatewayPolicy {
  /** Names the rule in audit records and errors (default `policies[INDEX]`). */
  name?: string;
  /** Globs over the token's `subject` or `clientId`; any one matching is enough. */
  principal?: string | string[];
  /** Globs over the token's scopes; any one matching any scope is enough. */
  scope?: string | string[];
  /** Patterns of what the rule lets through (`SERVER`, `SERVER__TOOL`, globs). */
  allow?: string[];
  /** Patterns of what the rule refuses; wins over every allow. */
  deny?: string[];
}

/** What {@link PolicySet.decide} concludes. */
export interface PolicyDecision {
  readonly allowed: boolean;
  /**
   * The rule that decided, for the audit trail: the deny that refused, the allow that let through,
   * or (refused for want of an allow) the first applicable rule with `allow`. Absent when no rule
   * decided (no policies, or no applicable allow or deny).
   */
  readonly rule?: string;
}

/** Options of {@link compilePolicies}. */
export interface PolicyOptions {
  /** Joins server and tool in gateway names (default `__`). */
  separator?: string;
}

/** The decisions for one request: the rules that apply to its auth, chosen once (a list filter calls it per item). */
export interface RequestPolicy {
  /** The decision for a tool (`tool` given) or a whole server. Pure; never throws. */
  decide(target: PolicyTarget): PolicyDecision;
}

interface CompiledRule {
  readonly label: string;
  readonly principal: readonly string[] | undefined;
  readonly scope: readonly string[] | undefined;
  readonly allow: readonly string[] | undefined;
  readonly deny: readonly string[] | undefined;
}

const RULE_KEYS = new Set(['name', 'principal', 'scope', 'allow', 'deny']);
const ALLOW_ALL: PolicyDecision = Object.freeze({ allowed: true });

/** Validated policies, ready to decide. Immutable; a config reload compiles a new set. */
export class PolicySet {
  /** @internal Use {@link compilePolicies}. */
  constructor(
    private readonly rules: readonly CompiledRule[],
    private readonly separator: string,
  ) {}

  /** How many rules there are (0: everything is allowed). */
  get size(): number {
    return this.rules.length;
  }

  /** The rules that apply to a request with `auth`, bound for many decisions. */
  forRequest(auth: AuthInfo | undefined): RequestPolicy {
    if (this.rules.length === 0) return { decide: () => ALLOW_ALL };
    const applicable = this.rules.filter((rule) => applies(rule, auth));
    const separator = this.separator;
    return {
      decide(target: PolicyTarget): PolicyDecision {
        for (const rule of applicable)
          if (rule.deny && anyPatternMatches(rule.deny, target, separator)) return { allowed: false, rule: rule.label };
        let firstAllow: CompiledRule | undefined;
        for (const rule of applicable) {
          if (!rule.allow) continue;
          firstAllow ??= rule;
          if (anyPatternMatches(rule.allow, target, separator)) return { allowed: true, rule: rule.label };
        }
        return firstAllow ? { allowed: false, rule: firstAllow.label } : ALLOW_ALL;
      },
    };
  }

  /** The decision for one request and one target (see the file header). Pure; never throws. */
  decide(auth: AuthInfo | undefined, target: PolicyTarget): PolicyDecision {
    return this.forRequest(auth).decide(target);
  }

  /** The decision for a whole-server item of `server` (its resources, templates, prompts). */
  decideServer(auth: AuthInfo | undefined, server: string): PolicyDecision {
    return this.forRequest(auth).decide({ server });
  }
}

function applies(rule: CompiledRule, auth: AuthInfo | undefined): boolean {
  if (rule.principal === undefined && rule.scope === undefined) return true;
  if (auth === undefined) return false;
  if (rule.principal !== undefined) {
    const ids = [auth.subject, auth.clientId].filter((id): id is string => id !== undefined);
    if (!rule.principal.some((glob) => ids.some((id) => globMatches(glob, id)))) return false;
  }
  if (rule.scope !== undefined && !rule.scope.some((glob) => auth.scopes.some((scope) => globMatches(glob, scope))))
    return false;
  return true;
}

/**
 * Validates `policies` (an array of {@link GatewayPolicy}; undefined = none) and compiles them.
 * Throws `ConfigError` (`CONFIG_INVALID`) whose message starts with `where` and names the rule
 * (`policies[1] ("ops")`) for: not an array, a rule not an object, an unknown key, a field of the
 * wrong type or empty, a rule with neither `allow` nor `deny`, two rules of one name.
 */
export function compilePolicies(policies: unknown, where: string, options: PolicyOptions = {}): PolicySet {
  const separator = checkSeparator(options.separator ?? '__', where);
  if (policies === undefined) return new PolicySet([], separator);
  if (!Array.isArray(policies))
    throw configProblem(
      { where, entry: 'policies' },
      'must be an array of rules ({ principal?, scope?, allow?, deny? })',
    );
  const names = new Set<string>();
  const rules = policies.map((raw: unknown, index): CompiledRule => {
    const named = isRecord(raw) && typeof raw.name === 'string' && raw.name !== '' ? ` ("${raw.name}")` : '';
    const site: ConfigSite = { where, entry: `policies[${index}]${named}` };
    if (!isRecord(raw)) throw configProblem(site, 'must be an object ({ principal?, scope?, allow?, deny? })');
    checkKeys(site, raw, RULE_KEYS);
    const name = optionalText(site, raw, 'name');
    if (name !== undefined) {
      if (names.has(name)) throw configProblem(site, `a second rule named "${name}" (names must be unique)`, 'name');
      names.add(name);
    }
    const rule: CompiledRule = {
      label: name ?? `policies[${index}]`,
      principal: oneOrMany(site, raw, 'principal'),
      scope: oneOrMany(site, raw, 'scope'),
      allow: patternList(site, raw, 'allow'),
      deny: patternList(site, raw, 'deny'),
    };
    if (!rule.allow && !rule.deny)
      throw configProblem(site, 'needs "allow" or "deny" (to refuse everything, deny ["*"])');
    return rule;
  });
  return new PolicySet(rules, separator);
}
