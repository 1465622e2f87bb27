// A run configuration as it crosses the wire (train.start, train.calibrate): the stored TrainConfig
// with its data file as a file reference.
import { z } from 'zod';
import { TrainConfig } from '../train/config';
import { FileData, GenerateData, StoredData, SyntheticData } from '../data/data-spec';
import { FileRef } from './files';

/**
 * A run configuration as a client sends it (train.start). A data file is a file reference
 * (`data.file`) the host resolves to the stored `data.path`; a `data.path` is accepted only when the
 * host chose it before (the data file of a run in the open workspace: a copied configuration).
 */
export const ApiTrainConfig = TrainConfig.extend({
  data: z.discriminatedUnion('kind', [
    SyntheticData,
    GenerateData,
    StoredData,
    FileData.extend({ path: FileData.shape.path.optional(), file: FileRef.optional() }).refine((d) => (d.file === undefined) !== (d.path === undefined), {
      path: ['file'],
      message: 'a file reference from the file browser or a dialog (or, in a copied configuration, the data.path of a run in this workspace), not both',
    }),
  ]),
});

