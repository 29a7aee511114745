/** What other modules use of institutions: subtree scoping by materialised path. */
export { institutionSubtreeIds, isInSubtree, pathOf } from './scope';
export { snapshot as snapshotInstitution } from './service';
