import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider } from './api/ApiContext';
import { getApi } from './api/get-api';
import { App } from './App';
import { ToastProvider } from './components/Toasts';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/screens.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <ApiProvider handle={getApi()}>
      <ToastProvider>
        <App />
      </ToastProvider>
    </ApiProvider>
  </StrictMode>,
);
