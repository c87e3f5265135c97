import { Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { RealtimeService } from '../realtime/realtime.service';
import { SettingsService } from './settings.service';

/**
 * The host's announcement banner on every connected client (issue #25): when it changes, each node sends
 * `announcement` to ITS OWN sockets (every node hears of every change, so each client gets it once); a socket that
 * connects while a banner is up gets it at once.
 */
@Injectable()
export class AnnouncementPush implements OnApplicationBootstrap {
  constructor(
    private readonly settings: SettingsService,
    @Optional() private readonly realtime?: RealtimeService,
  ) {}

  onApplicationBootstrap(): void {
    let io: RealtimeService['io'];
    try {
      if (!this.realtime) return;
      io = this.realtime.io;
    } catch {
      return; // no socket server in this application (e.g. the migrate or admin commands)
    }
    io.on('connection', (socket) => {
      const a = this.settings.get().announcement;
      if (a) socket.emit('announcement', a);
    });
    this.settings.onChange((next, prev) => {
      if (next.announcement?.id === prev.announcement?.id) return;
      io.local.emit('announcement', next.announcement);
    });
  }
}
