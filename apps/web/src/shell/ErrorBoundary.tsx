import { Component, type ReactNode } from 'react';
import Button from 'antd/es/button';
import { t } from '../lib/i18n';

interface State {
  error: Error | null;
}

/** Catches render errors of one page: the rest of the shell keeps working; the error goes to the log. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(prev: { resetKey?: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="page-error" role="alert" data-testid="page-error">
        <div className="page-error-icon" aria-hidden>
          !
        </div>
        <h2>{t('errorLog.boundaryTitle')}</h2>
        <p>{t('errorLog.boundaryText')}</p>
        <Button type="primary" onClick={() => this.setState({ error: null })}>
          {t('errorLog.retry')}
        </Button>
      </div>
    );
  }
}
