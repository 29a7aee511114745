/** What other modules may use of the schematics module: the built-in drawings. */
export { builtinImage, solidPng } from './drawing';
