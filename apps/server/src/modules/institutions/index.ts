/** What other modules use of institutions: subtree scoping by materialised path, and creating one (branch approval). */
export { inSubtree, institutionSubtreeIds, isInSubtree, pathOf } from './scope';
export { assertUsernameFree, createInstitution, type NewInstitution } from './accounts';
export { snapshot as snapshotInstitution } from './service';
