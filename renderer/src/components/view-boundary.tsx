// A view that throws while rendering shows a readable message and a way back instead of
// blanking the whole window (the navigation and status bar stay usable).
import { Component, type ReactNode } from 'react';

export class ViewBoundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(prev: { name: string }) {
    // Switching views gives the new view a fresh start.
    if (prev.name !== this.props.name && this.state.error) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="errors" role="alert" data-testid="view-error">
        <div className="error">
          <strong>The {this.props.name} view failed to draw:</strong> <span className="error-message">{this.state.error.message}</span>{' '}
          <button className="link" onClick={() => this.setState({ error: null })}>Try again</button>
        </div>
      </div>
    );
  }
}
