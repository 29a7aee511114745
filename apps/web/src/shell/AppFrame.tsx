import { useEffect, type ReactNode } from 'react';
import AntApp from 'antd/es/app';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query';
import { bindFeedback } from '../lib/feedback';

/** Binds App.useApp() for code outside React (the api client). */
function FeedbackBinder() {
  const feedback = AntApp.useApp();
  useEffect(() => bindFeedback(feedback), [feedback]);
  return null;
}

/** antd App (messages, modals and notifications that follow theme, size and locale) and react-query. */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <AntApp className="app-root" message={{ maxCount: 3 }}>
      <FeedbackBinder />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </AntApp>
  );
}
