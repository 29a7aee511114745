import type { SchematicBody, SchematicEditBody } from '@app/contract/api/master';
import { useApiMutation } from '../../../components/list';
import { SCHEMATIC_LIST } from './list-schematics';
import { SCHEMATIC_DETAIL } from './schematic-detail';

const INVALIDATE = [SCHEMATIC_LIST, SCHEMATIC_DETAIL];

/** POST /schematic/add (with its markers) and /schematic/edit (markers present = replaced). */
export const useAddSchematic = () => useApiMutation<SchematicBody, { id: number }>('/schematic/add', { invalidate: INVALIDATE });
export const useEditSchematic = () => useApiMutation<SchematicEditBody>('/schematic/edit', { invalidate: INVALIDATE });
