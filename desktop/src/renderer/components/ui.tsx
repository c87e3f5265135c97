import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Dialog, VisuallyHidden } from 'radix-ui';
import { Bot, User as UserIcon, X } from 'lucide-react';
import { avatarFallback } from '../lib/avatar';

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}

export function LoadingScreen({ text = 'Loading…' }: { text?: string }) {
  return (
    <div className="loading-screen" aria-busy="true">
      <Logo size={56} />
      <Spinner />
      <p className="muted">{text}</p>
    </div>
  );
}

export function Logo({ size = 32, withText = false }: { size?: number; withText?: boolean }) {
  return (
    <span className="logo">
      <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
        <defs>
          <linearGradient id="lg-spade" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0" stopColor="#f8fafc" />
            <stop offset="1" stopColor="#cbd5e1" />
          </linearGradient>
        </defs>
        <rect x="2" y="2" width="60" height="60" rx="14" fill="#15603a" stroke="#2f9e62" strokeWidth="2" />
        <path
          d="M32 12c-6 9-17 15-17 24 0 6 5 10 10 10 3 0 5-1 6-3-1 5-3 8-6 9h14c-3-1-5-4-6-9 1 2 3 3 6 3 5 0 10-4 10-10 0-9-11-15-17-24z"
          fill="url(#lg-spade)"
        />
      </svg>
      {withText && <span className="logo-text">Spades</span>}
    </span>
  );
}

const AVATAR_COLORS = ['#ef4444', '#3b82f6', '#f59e0b', '#a855f7', '#10b981'];

export function Avatar({
  src,
  id,
  name,
  size = 36,
  isBot = false,
  className = '',
}: {
  src?: string | null;
  id: string;
  name: string;
  size?: number;
  isBot?: boolean;
  className?: string;
}) {
  const style = { width: size, height: size };
  if (src) return <img className={`avatar ${className}`} src={src} alt={`${name}'s avatar`} style={style} />;
  const fb = avatarFallback(id, isBot);
  const bg = fb.kind === 'default' ? AVATAR_COLORS[fb.index] : fb.kind === 'bot' ? '#475569' : '#64748b';
  return (
    <span
      className={`avatar avatar-fallback ${className}`}
      style={{ ...style, background: bg }}
      role="img"
      aria-label={`${name}'s avatar`}
    >
      {fb.kind === 'bot' ? (
        <Bot size={size * 0.55} aria-hidden="true" />
      ) : fb.kind === 'guest' ? (
        <UserIcon size={size * 0.55} aria-hidden="true" />
      ) : (
        <span style={{ fontSize: size * 0.42 }}>{(name.trim()[0] ?? '?').toUpperCase()}</span>
      )}
    </span>
  );
}

export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  className = '',
  hideClose = false,
  dismissable = true,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  hideClose?: boolean;
  dismissable?: boolean;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        <Dialog.Content
          className={`modal ${className}`}
          onPointerDownOutside={(e) => !dismissable && e.preventDefault()}
          onEscapeKeyDown={(e) => !dismissable && e.preventDefault()}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title className="modal-title">{title}</Dialog.Title>
          {description ? <Dialog.Description className="modal-desc">{description}</Dialog.Description> : null}
          {children}
          {!hideClose && (
            <Dialog.Close className="icon-btn modal-close" aria-label="Close">
              <X size={18} />
            </Dialog.Close>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function HiddenTitle({ children }: { children: ReactNode }) {
  return <VisuallyHidden.Root>{children}</VisuallyHidden.Root>;
}

export function ConfirmDialog({
  open,
  title,
  message,
  onYes,
  onNo,
  yesLabel = 'Yes',
  noLabel = 'No',
  danger = false,
}: {
  open: boolean;
  title: string;
  message: ReactNode;
  onYes: () => void;
  onNo: () => void;
  yesLabel?: string;
  noLabel?: string;
  danger?: boolean;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && onNo()}
      title={title}
      description={message}
      className="modal-sm"
      hideClose
    >
      <div className="modal-actions">
        <button type="button" className="btn btn-ghost" onClick={onNo}>
          {noLabel}
        </button>
        <button type="button" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} onClick={onYes} autoFocus>
          {yesLabel}
        </button>
      </div>
    </Modal>
  );
}

interface Toast {
  id: number;
  text: string;
  tone: 'error' | 'info';
}
const ToastContext = createContext<(text: string, tone?: 'error' | 'info') => void>(() => undefined);

/** Transient messages instead of window.alert (ui-direction), with the spec's texts. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const push = useCallback((text: string, tone: 'error' | 'info' = 'error') => {
    const id = next.current++;
    setToasts((t) => [...t.slice(-3), { id, text, tone }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), 6000);
  }, []);
  const value = useMemo(() => push, [push]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="region" aria-label="Notifications">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.tone}`} role="alert">
            <span>{t.text}</span>
            <button
              type="button"
              className="icon-btn"
              aria-label="Dismiss"
              onClick={() => setToasts((all) => all.filter((x) => x.id !== t.id))}
            >
              <X size={14} />
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useNotify() {
  return useContext(ToastContext);
}

export function CoinIcon({ size = 16 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 20 20" aria-hidden="true" className="coin-icon">
      <circle cx="10" cy="10" r="9" fill="#f5b93a" stroke="#b7791f" strokeWidth="1.5" />
      <circle cx="10" cy="10" r="5.5" fill="none" stroke="#b7791f" strokeWidth="1.2" />
    </svg>
  );
}
