import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Table `users` (migration InitPlatform). Coins are NOT a column: they live in the ledger (CoinsService). */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 20 })
  username: string;

  /** Look-alike key of the username (`nameKey`, migration UsernameKey): unique, so a name cannot imitate another. */
  @Column({ name: 'username_key', type: 'text' })
  usernameKey: string;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ name: 'password_hash', type: 'text', nullable: true, select: false })
  passwordHash: string | null;

  @Column({ name: 'discord_id', type: 'varchar', length: 32, nullable: true })
  discordId: string | null;

  @Column({ type: 'text', nullable: true })
  avatar: string | null;

  /**
   * The account's role (issue #24, migration AccountRoles): set by `npm run admin -- grant|revoke`, ADMIN_USERS
   * ids at boot or the setup token — never by name or e-mail, so renaming never changes it.
   */
  @Column({ type: 'varchar', length: 10, default: 'user' })
  role: 'user' | 'moderator' | 'admin';

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
