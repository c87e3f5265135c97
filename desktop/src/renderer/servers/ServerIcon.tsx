import { useState } from 'react';

/** A server's icon, or the first letter of its name when it has none (or it does not load). */
export function ServerIcon({ name, icon, size = 44 }: { name: string; icon: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  const letter = (name.trim()[0] ?? '?').toUpperCase();
  if (icon && !failed) {
    return <img className="server-icon" src={icon} alt="" width={size} height={size} onError={() => setFailed(true)} />;
  }
  return (
    <span
      className="server-icon server-icon-letter"
      style={{ width: size, height: size, fontSize: size * 0.45 }}
      aria-hidden="true"
    >
      {letter}
    </span>
  );
}
