import { useApp } from '../stores/app-store';

/** Engine and host errors as readable messages, next to what caused them, never a blank screen. */
export function ErrorBanner() {
  const errors = useApp((s) => s.errors);
  const dismiss = useApp((s) => s.dismissError);
  if (errors.length === 0) return null;
  return (
    <div className="errors" role="alert">
      {errors.map((e) => (
        <div className="error" key={e.id}>
          <strong>Error while {e.where}:</strong> <span className="error-message">{e.message}</span>
          <button className="link" onClick={() => dismiss(e.id)} aria-label="Dismiss error">Dismiss</button>
        </div>
      ))}
    </div>
  );
}
