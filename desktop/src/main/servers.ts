// The servers the player added (issue #30): several communities side by side, one current. Each is checked
// through its public server-info endpoint before it is saved; each keeps its own session token, encrypted with
// Electron's safeStorage (injected, like every Electron dependency here) in <userData>/servers.json.
import {
  normalizeServerAddress,
  PROTOCOL_VERSION,
  REGISTRATION_MODES,
  SERVER_INFO_LIMITS,
  SERVER_INFO_PATH,
  SIGN_IN_METHODS,
  type ServerInfo,
} from '../../../common/src/protocol/server-info';
import { SSO_PROVIDER_ID, type SsoProviderInfo } from '../../../common/src/protocol/identities';
import type { BootState, SavedServer, ServerProbe } from '../shared/bridge';
import { isRecord, type JsonStore } from './json-store';
import type { Logger } from './logger';

export interface StoredServer {
  id: string;
  address: string;
  name: string;
  icon: string | null;
  description: string;
  version: string;
  addedAt: string;
  /** safeStorage.encryptString(token), base64. Never the token itself. */
  session?: string;
}

export interface ServersFile {
  current: string | null;
  servers: StoredServer[];
}

/** The structural subset of Electron's safeStorage. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** GET a URL and parse JSON (main's net.fetch in the app, a fake in tests). Rejects on network failure. */
export type FetchJson = (url: string) => Promise<{ status: number; json: unknown }>;

export interface ServerRegistryDeps {
  store: JsonStore<ServersFile>;
  safeStorage: SafeStorageLike;
  fetchJson: FetchJson;
  newId(): string;
  now(): Date;
  log: Logger;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A session token: JWT or opaque, base64url plus '.', '~'. */
const TOKEN = /^[A-Za-z0-9._~-]{8,4096}$/;
// eslint-disable-next-line no-control-regex -- stripping control characters from a foreign server's text is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const PROVIDER_KINDS: readonly SsoProviderInfo['kind'][] = ['discord', 'oidc', 'github'];

const cleanText = (v: unknown, max: number): string | undefined =>
  typeof v === 'string' && v.length <= max * 4 ? v.replace(CONTROL, ' ').trim().slice(0, max) : undefined;

/** The server's sign-in buttons (issue #26): well-formed entries only, labels cleaned, no repeated id. */
function validateProviders(raw: unknown): SsoProviderInfo[] {
  if (!Array.isArray(raw)) return [];
  const out: SsoProviderInfo[] = [];
  for (const p of raw.slice(0, SERVER_INFO_LIMITS.providers)) {
    if (!isRecord(p) || typeof p.id !== 'string' || out.some((o) => o.id === p.id)) continue;
    const kind = PROVIDER_KINDS.find((k) => k === p.kind);
    const label = cleanText(p.label, SERVER_INFO_LIMITS.providerLabel);
    if (!kind || !label || !SSO_PROVIDER_ID.test(p.id) || (p.id === 'discord') !== (kind === 'discord')) continue;
    out.push({ id: p.id, label, kind });
  }
  return out;
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** A foreign server's answer, checked field by field (its text is shown to the player); undefined = not Spades. */
export function validateServerInfo(raw: unknown): ServerInfo | undefined {
  if (!isRecord(raw) || raw.kind !== 'spades') return undefined;
  const name = cleanText(raw.name, SERVER_INFO_LIMITS.name);
  const description = cleanText(raw.description ?? '', SERVER_INFO_LIMITS.description);
  const version = cleanText(raw.version, SERVER_INFO_LIMITS.version);
  if (!name || description === undefined || !version) return undefined;
  if (typeof raw.protocolVersion !== 'number' || !Number.isInteger(raw.protocolVersion)) return undefined;
  let icon: string | null = null;
  if (typeof raw.icon === 'string' && raw.icon.length <= SERVER_INFO_LIMITS.icon && isHttpUrl(raw.icon))
    icon = raw.icon;
  const signIn = Array.isArray(raw.signIn)
    ? SIGN_IN_METHODS.filter((m) => (raw.signIn as unknown[]).includes(m))
    : ['password' as const];
  // absent from a server older than issue #26
  const providers = validateProviders(raw.providers);
  const registration = REGISTRATION_MODES.find((m) => m === raw.registration) ?? 'open';
  return {
    kind: 'spades',
    name,
    icon,
    description,
    version,
    protocolVersion: raw.protocolVersion,
    signIn,
    providers,
    registration,
  };
}

export function parseServersFile(raw: unknown): ServersFile | undefined {
  if (!isRecord(raw) || !Array.isArray(raw.servers)) return undefined;
  const servers: StoredServer[] = [];
  for (const s of raw.servers) {
    if (!isRecord(s) || typeof s.id !== 'string' || !ID.test(s.id)) continue;
    const address = normalizeServerAddress(s.address);
    const name = cleanText(s.name, SERVER_INFO_LIMITS.name);
    if (!address || !name || servers.some((o) => o.id === s.id || o.address === address)) continue;
    servers.push({
      id: s.id,
      address,
      name,
      icon: typeof s.icon === 'string' && isHttpUrl(s.icon) ? s.icon : null,
      description: cleanText(s.description, SERVER_INFO_LIMITS.description) ?? '',
      version: cleanText(s.version, SERVER_INFO_LIMITS.version) ?? '',
      addedAt: typeof s.addedAt === 'string' ? s.addedAt : new Date(0).toISOString(),
      ...(typeof s.session === 'string' && /^[A-Za-z0-9+/=]{1,16384}$/.test(s.session) ? { session: s.session } : {}),
    });
  }
  const current = typeof raw.current === 'string' && servers.some((s) => s.id === raw.current) ? raw.current : null;
  return { current, servers };
}

/** The player-facing words for a protocol mismatch: who has to update what. */
export function protocolMismatchMessage(name: string, serverVersion: number, appVersion = PROTOCOL_VERSION): string {
  return serverVersion > appVersion
    ? `${name} runs a newer Spades (protocol ${serverVersion}; this app speaks ${appVersion}). Update the app to play there.`
    : `${name} runs an older Spades (protocol ${serverVersion}; this app speaks ${appVersion}). Ask its host to update the server.`;
}

export interface ServerRegistry {
  list(): SavedServer[];
  current(): SavedServer | null;
  byId(id: string): SavedServer | null;
  byAddress(address: string): SavedServer | null;
  /** Fetch and check the server-info at an address (nothing is saved). */
  probe(address: unknown): Promise<ServerProbe>;
  /** Probe, then save the server (or refresh a saved one). Never switches. */
  add(address: unknown): Promise<ServerProbe>;
  /** Saved without a check (a `--server=` argument, a community build's default): named by its host until refreshed. */
  seed(address: string): SavedServer | null;
  /** Refresh a saved server's name, icon and description from its server-info (best effort, at start-up). */
  refresh(id: string): Promise<void>;
  switchTo(id: unknown): SavedServer | null;
  forget(id: unknown): boolean;
  /** Store (encrypted) or clear the current server's session. */
  setSession(token: unknown): boolean;
  bootState(): BootState;
}

export function createServerRegistry(deps: ServerRegistryDeps): ServerRegistry {
  let file: ServersFile = deps.store.read() ?? { current: null, servers: [] };
  // This run's sessions in memory: kept when switching back even where safeStorage cannot encrypt.
  const sessions = new Map<string, string | null>();
  let warnedPlain = false;

  const save = (next: ServersFile): boolean => {
    file = next;
    return deps.store.write(next);
  };
  const tokenOf = (s: StoredServer): string | null => {
    if (sessions.has(s.id)) return sessions.get(s.id) ?? null;
    if (!s.session) return null;
    try {
      const token = deps.safeStorage.decryptString(Buffer.from(s.session, 'base64'));
      return TOKEN.test(token) ? token : null;
    } catch {
      deps.log.warn(`could not decrypt the session of ${s.address}; signed out there`);
      return null;
    }
  };
  const view = (s: StoredServer | undefined): SavedServer | null =>
    s
      ? {
          id: s.id,
          address: s.address,
          name: s.name,
          icon: s.icon,
          description: s.description,
          version: s.version,
          signedIn: tokenOf(s) !== null,
          current: s.id === file.current,
        }
      : null;
  const find = (id: unknown) => (typeof id === 'string' ? file.servers.find((s) => s.id === id) : undefined);

  async function probe(raw: unknown): Promise<ServerProbe> {
    const address = normalizeServerAddress(raw);
    if (!address) {
      return {
        ok: false,
        error: 'invalid_address',
        message: 'That is not a server address. Type it like spades.example.org or https://spades.example.org:3000.',
      };
    }
    let res: { status: number; json: unknown };
    try {
      res = await deps.fetchJson(`${address}${SERVER_INFO_PATH}`);
    } catch (e) {
      return {
        ok: false,
        address,
        error: 'unreachable',
        message: `Could not reach ${address} (${(e as Error).message}).`,
      };
    }
    const info = res.status === 200 ? validateServerInfo(res.json) : undefined;
    if (!info) {
      return {
        ok: false,
        address,
        error: 'not_spades',
        message: `${address} answered, but it is not a Spades server.`,
      };
    }
    if (info.protocolVersion !== PROTOCOL_VERSION) {
      return {
        ok: false,
        address,
        info,
        error: 'protocol_mismatch',
        message: protocolMismatchMessage(info.name, info.protocolVersion),
      };
    }
    return { ok: true, address, info };
  }

  const fromInfo = (info: ServerInfo) => ({
    name: info.name,
    icon: info.icon,
    description: info.description,
    version: info.version,
  });

  return {
    list: () => file.servers.map((s) => view(s)!),
    current: () => view(find(file.current)),
    byId: (id) => view(find(id)),
    byAddress: (address) => view(file.servers.find((s) => s.address === normalizeServerAddress(address))),
    probe,
    async add(raw) {
      const p = await probe(raw);
      if (!p.ok) return p;
      const existing = file.servers.find((s) => s.address === p.address);
      let stored: StoredServer;
      if (existing) {
        stored = { ...existing, ...fromInfo(p.info) };
        save({ ...file, servers: file.servers.map((s) => (s.id === existing.id ? stored : s)) });
      } else {
        stored = { id: deps.newId(), address: p.address, ...fromInfo(p.info), addedAt: deps.now().toISOString() };
        if (!save({ ...file, servers: [...file.servers, stored] })) {
          return {
            ok: false,
            address: p.address,
            info: p.info,
            error: 'storage',
            message: 'Could not save the server list.',
          };
        }
      }
      deps.log.info(`server ${existing ? 'refreshed' : 'added'}: ${p.address}`);
      return { ...p, server: view(stored)! };
    },
    seed(raw) {
      const address = normalizeServerAddress(raw);
      if (!address) return null;
      let s = file.servers.find((o) => o.address === address);
      if (!s) {
        const host = address.replace(/^https?:\/\//, '');
        s = {
          id: deps.newId(),
          address,
          name: host.slice(0, SERVER_INFO_LIMITS.name),
          icon: null,
          description: '',
          version: '',
          addedAt: deps.now().toISOString(),
        };
        save({ ...file, servers: [...file.servers, s] });
      }
      return view(s);
    },
    async refresh(id) {
      const s = find(id);
      if (!s) return;
      const p = await probe(s.address);
      const again = find(id);
      if (!p.ok || !again) return;
      save({ ...file, servers: file.servers.map((o) => (o.id === id ? { ...o, ...fromInfo(p.info) } : o)) });
    },
    switchTo(id) {
      const s = find(id);
      if (!s) return null;
      save({ ...file, current: s.id });
      deps.log.info(`current server: ${s.address}`);
      return view(s);
    },
    forget(id) {
      const s = find(id);
      if (!s) return false;
      sessions.delete(s.id);
      save({
        current: file.current === s.id ? null : file.current,
        servers: file.servers.filter((o) => o.id !== s.id),
      });
      deps.log.info(`server forgotten: ${s.address}`);
      return true;
    },
    setSession(token) {
      const s = find(file.current);
      if (!s) return false;
      if (token !== null && (typeof token !== 'string' || !TOKEN.test(token))) return false;
      sessions.set(s.id, token);
      let session: string | undefined;
      if (token !== null) {
        if (deps.safeStorage.isEncryptionAvailable()) {
          session = deps.safeStorage.encryptString(token).toString('base64');
        } else if (!warnedPlain) {
          warnedPlain = true;
          deps.log.warn('safeStorage cannot encrypt here: sessions last until the app quits');
        }
      }
      const { session: _old, ...rest } = s;
      return save({
        ...file,
        servers: file.servers.map((o) => (o.id === s.id ? { ...rest, ...(session ? { session } : {}) } : o)),
      });
    },
    bootState() {
      const s = find(file.current);
      return { server: view(s), token: s ? tokenOf(s) : null, protocolVersion: PROTOCOL_VERSION };
    },
  };
}
