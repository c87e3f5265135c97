/**
 * The desktop app checks, at start, that its current server still speaks its protocol version (issue #30): a
 * server updated since it was added may not. Then it says so plainly, and who has to update, instead of failing
 * screen by screen. Nothing on the web (served by its own server, always in step).
 */
import { useEffect, useState } from 'react';
import { PROTOCOL_VERSION, SERVER_INFO_PATH } from '@spades/common';
import { apiUrl, bridge } from '../lib/platform';
import './servers.css';

export function protocolMismatchText(name: string, serverVersion: number, appVersion = PROTOCOL_VERSION): string {
  return serverVersion > appVersion
    ? `${name} now runs a newer Spades (protocol ${serverVersion}; this app speaks ${appVersion}). Update the app to keep playing there.`
    : `${name} runs an older Spades (protocol ${serverVersion}; this app speaks ${appVersion}). Ask its host to update the server.`;
}

export function ProtocolBanner() {
  const [text, setText] = useState<string | null>(null);
  const current = bridge()?.servers?.current() ?? null;
  const id = current?.id;
  const name = current?.name ?? '';
  useEffect(() => {
    if (!id) return;
    let live = true;
    fetch(apiUrl(SERVER_INFO_PATH), { headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? (r.json() as Promise<{ name?: unknown; protocolVersion?: unknown }>) : null))
      .then((info) => {
        if (!live || !info || typeof info.protocolVersion !== 'number' || info.protocolVersion === PROTOCOL_VERSION)
          return;
        setText(protocolMismatchText(typeof info.name === 'string' ? info.name : name, info.protocolVersion));
      })
      .catch(() => undefined); // unreachable: the pages say so themselves
    return () => {
      live = false;
    };
  }, [id, name]);
  if (!text) return null;
  return (
    <div className="protocol-banner" role="alert">
      <span>{text}</span>
      <a className="btn btn-secondary btn-sm" href="/servers">
        Servers
      </a>
    </div>
  );
}
