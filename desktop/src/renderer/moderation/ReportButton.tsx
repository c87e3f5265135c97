import { useState } from 'react';
import { Flag } from 'lucide-react';
import type { ReportContextInput } from '@spades/common';
import { ReportDialog } from './ReportDialog';

/** "Report" on a player's seat or profile (issue #25): opens the report dialog for that player and context. */
export function ReportButton({
  userId,
  username,
  context,
  className = 'link-report',
  label = 'Report',
}: {
  userId: string;
  username: string;
  context: ReportContextInput;
  className?: string;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)} aria-label={`Report ${username}`}>
        <Flag size={12} aria-hidden="true" /> {label}
      </button>
      <ReportDialog target={open ? { userId, username, context } : null} onClose={() => setOpen(false)} />
    </>
  );
}
