/**
 * The JSON Schema `format`s mcpwire checks, as small predicates on strings (JSON Schema 2020-12
 * validation §7.3; the same names in draft-07 and 2019-09): `date`, `time`, `date-time`
 * (RFC 3339: real calendar days, an offset required, a leap second only at 23:59:60 UTC),
 * `email` (a dot-atom local part and a host name: no quoted local parts or address literals),
 * `hostname` (RFC 1123), `ipv4`, `ipv6` (RFC 4291 text, no zone), `uri` and `uri-reference`
 * (RFC 3986 characters and shape: a scheme for `uri`, `%` only as `%HH`, brackets only around an
 * IP literal host), `uuid` (RFC 4122 text, any version). A format not listed is not checked (it
 * passes), as the spec allows. No dependency and no `node:*`: a validator adds them with
 * {@link addSchemaFormats}.
 */

/** A format check: true when `value` is in the format. */
export type FormatCheck = (value: string) => boolean;

/** The names of the formats mcpwire checks. */
export type SchemaFormat =
  'date' | 'time' | 'date-time' | 'email' | 'hostname' | 'ipv4' | 'ipv6' | 'uri' | 'uri-reference' | 'uuid';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month - 1]!);
}

function isTime(value: string): boolean {
  const match = TIME.exec(value);
  if (!match) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [offsetHour, offsetMinute] = [Number(match[6] ?? 0), Number(match[7] ?? 0)];
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  // A leap second is 23:59:60 in UTC (RFC 3339 §5.7): shift the local time back by the offset.
  const sign = match[5] === '-' ? -1 : 1;
  const utcMinutes = (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

function isDateTime(value: string): boolean {
  // RFC 3339 §5.6 allows a space or a lower-case t for the separator.
  const separator = value.search(/[Tt ]/);
  return separator === 10 && isDate(value.slice(0, 10)) && isTime(value.slice(11));
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

function isHostname(value: string): boolean {
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
}

const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;

/** A dot-atom local part, `@`, a host name (the HTML form rule, RFC 5321's common form). */
function isEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at < 1 || at > 64) return false;
  const domain = value.slice(at + 1);
  return LOCAL_PART.test(value.slice(0, at)) && !domain.endsWith('.') && isHostname(domain);
}

const OCTET = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIpv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((part) => OCTET.test(part));
}

const HEXTET = /^[0-9a-f]{1,4}$/i;

function isIpv6(value: string): boolean {
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const groups = (half: string): string[] | undefined => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return false;
  const all = [...head, ...tail];
  // The last group may be an IPv4 address (RFC 4291 §2.2, form 3), worth two groups.
  const last = all[all.length - 1];
  const v4 = last !== undefined && last.includes('.');
  if (v4 && !isIpv4(last)) return false;
  const hextets = v4 ? all.slice(0, -1) : all;
  if (!hextets.every((group) => HEXTET.test(group))) return false;
  const count = hextets.length + (v4 ? 2 : 0);
  return halves.length === 2 ? count <= 7 : count === 8;
}

// RFC 3986 §2: unreserved, sub-delims, ":" and "@" (pchar), "/" and "?"; "%" only as "%HH".
const URI_CHARS = /^(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*$/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const PORT = /^\d*$/;
const IP_FUTURE = /^v[0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+$/i;

/** RFC 3986 §4.1: a URI (`absolute`, with a scheme) or a relative reference. */
function isUriReference(value: string, absolute: boolean): boolean {
  const scheme = SCHEME.exec(value)?.[0];
  if (absolute && !scheme) return false;
  let rest = scheme ? value.slice(scheme.length) : value;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    // The fragment may hold "/" and "?" but no second "#".
    if (!URI_CHARS.test(rest.slice(hash + 1))) return false;
    rest = rest.slice(0, hash);
  }
  let pathAndQuery = rest;
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?]/);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, 2 + end);
    pathAndQuery = end < 0 ? '' : rest.slice(2 + end);
    if (!isAuthority(authority)) return false;
  } else if (!scheme) {
    // A relative path's first segment has no ":" (it would read as a scheme, §4.2).
    const firstSegment = rest.split(/[/?]/)[0]!;
    if (firstSegment.includes(':')) return false;
  }
  return URI_CHARS.test(pathAndQuery);
}

function isAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : '';
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  if (userinfo.includes('@') || !URI_CHARS.test(userinfo) || /[/?]/.test(userinfo)) return false;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) return false;
    const literal = hostPort.slice(1, close);
    const after = hostPort.slice(close + 1);
    return (
      (isIpv6(literal) || IP_FUTURE.test(literal)) && (after === '' || (after[0] === ':' && PORT.test(after.slice(1))))
    );
  }
  const colon = hostPort.lastIndexOf(':');
  const host = colon >= 0 ? hostPort.slice(0, colon) : hostPort;
  if (colon >= 0 && !PORT.test(hostPort.slice(colon + 1))) return false;
  // reg-name: unreserved, pct-encoded, sub-delims (no ":" "@" "/" "?").
  return /^(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*$/i.test(host);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every format mcpwire checks, by name. */
export const SCHEMA_FORMATS: Readonly<Record<SchemaFormat, FormatCheck>> = {
  date: isDate,
  time: isTime,
  'date-time': isDateTime,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  uri: (value) => isUriReference(value, true),
  'uri-reference': (value) => isUriReference(value, false),
  uuid: (value) => UUID.test(value),
};

/**
 * Adds {@link SCHEMA_FORMATS} to an Ajv instance (any dialect), replacing formats of the same
 * name. Ajv applies a format only to strings; other values pass it.
 */
export function addSchemaFormats(ajv: { addFormat(name: string, format: FormatCheck): unknown }): void {
  for (const [name, check] of Object.entries(SCHEMA_FORMATS)) ajv.addFormat(name, check);
}
