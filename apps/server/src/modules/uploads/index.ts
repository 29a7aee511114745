/** What other modules may use of the uploads module. */
export { registerMultipart } from './multipart';
export { moveUploadFolderIn } from './move-in';
export { locate, receiveImage, sniff } from './service';
