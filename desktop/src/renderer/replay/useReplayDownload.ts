/** "JSON": downloads the replay document (through a share link, the document at hand; else the server's file). */
import { useCallback } from 'react';
import type { GameReplay } from '@spades/common';
import { api, errorText } from '../lib/api';
import { useNotify } from '../components/ui';
import { replayDownloadUrl, replayFileName } from './replay-view';

export function useReplayDownload(doc: GameReplay, shared: boolean): () => Promise<void> {
  const notify = useNotify();
  return useCallback(async () => {
    try {
      // through a share link the document at hand is the download (the signed-in route is not open to its holder)
      const body = shared ? doc : await api.get<unknown>(replayDownloadUrl(doc));
      const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = replayFileName(doc);
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      notify(errorText(e, 'Download failed'));
    }
  }, [doc, shared, notify]);
}
