/** Transient UI state of the shell (not saved). */
import { create } from 'zustand';

interface UiState {
  settingsOpen: boolean;
  mobileMenuOpen: boolean;
  passwordOpen: boolean;
  errorLogOpen: boolean;
  set: (patch: Partial<Omit<UiState, 'set'>>) => void;
}

export const useUi = create<UiState>()((set) => ({
  settingsOpen: false,
  mobileMenuOpen: false,
  passwordOpen: false,
  errorLogOpen: false,
  set: (patch) => set(patch),
}));
