/** POST /schematic/del { id }: the markers go with the diagram (through shared/delete.tsx). */
export const SCHEMATIC_DELETE = '/schematic/del';
