/** Loads the replay document (by game, or through a share link) and builds its timeline; null when unreadable. */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api';
import { buildTimeline, isReplayDocument } from './replay-model';
import { replayUrl } from './replay-view';

export function useReplayDocument(id: string, game: string | null, share: string | null) {
  const q = useQuery({
    queryKey: ['replay', id, game, share],
    queryFn: () => api.get<unknown>(replayUrl(id, game, share)),
    retry: false,
    staleTime: Infinity,
  });
  const timeline = useMemo(() => (q.data && isReplayDocument(q.data) ? buildTimeline(q.data) : null), [q.data]);
  return { isLoading: q.isLoading, error: q.error, timeline };
}
