// Vite handles CSS and asset imports in the renderer; these are its type declarations for them.
/// <reference types="vite/client" />
