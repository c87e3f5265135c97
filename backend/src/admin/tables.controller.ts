import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ConsoleTableActionResult, ConsoleTableItem, ConsoleTablesPage } from '@spades/common';
import { StaffGuard, type StaffRequest } from './staff.guard';
import { CloseTableInput, RemoveTablePlayerInput } from './tables.input';
import { parseTablesQuery } from './tables.query';
import { ConsoleTablesService } from './tables.service';

/**
 * The console's Tables area (issue #25), moderators and admins. Opening a table as a spectator uses the ordinary
 * `POST /api/games/:id/spectate` (staff may watch any table, private ones included: table.access.ts).
 */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(StaffGuard)
@Controller('admin/tables')
export class ConsoleTablesController {
  constructor(private readonly tables: ConsoleTablesService) {}

  @Get()
  @ApiOperation({
    summary:
      'Live and recent tables, private ones included (?status=live|waiting|playing|recent|all&mode=&player=&limit=)',
  })
  list(@Query() raw: Record<string, unknown>): Promise<ConsoleTablesPage> {
    const q = parseTablesQuery(raw);
    if (typeof q === 'string') throw new BadRequestException(q);
    return this.tables.list(q);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One table (open or closed)' })
  get(@Param('id') id: string): Promise<ConsoleTableItem> {
    return this.tables.get(id);
  }

  @Post(':id/close')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Close a stuck table {reason}: a rated game in progress is settled as abandoned (escrow to the house)',
  })
  async close(
    @Param('id') id: string,
    @Body() body: CloseTableInput,
    @Req() req: StaffRequest,
  ): Promise<ConsoleTableActionResult> {
    return { ok: true, table: await this.tables.close(id, { actorId: req.userId!, reason: body.reason }) };
  }

  @Post(':id/remove-player')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a player from the table {userId, reason}: a bot takes a running game’s seat' })
  async removePlayer(
    @Param('id') id: string,
    @Body() body: RemoveTablePlayerInput,
    @Req() req: StaffRequest,
  ): Promise<ConsoleTableActionResult> {
    const by = { actorId: req.userId!, reason: body.reason };
    return { ok: true, table: await this.tables.removePlayer(id, body.userId, by) };
  }
}
