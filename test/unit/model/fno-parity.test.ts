// FNO parity with the PyTorch reference (scaleout/fno_ref.py; fixtures from
// tools/parity/make_fno_fixtures.py): 1D (with and without the Nyquist mode) and 2D (even and odd
// grids). Forward rel. error <= 1e-5 and gradient of sum(y * w) wrt every parameter <= 1e-4, on
// cpu and wasm, with the weights loaded under the reference's state_dict names.
import { kindParityTests } from './kind-parity';

kindParityTests('fno', 'FNO', 4);
