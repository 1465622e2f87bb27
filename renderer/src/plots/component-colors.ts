// One colour per light component, the same in every view (Gates, Ablation, light maps), so a
// component keeps its colour whichever others a run has: picking colours by position made
// refraction orange in a full model and blue in a run without reflection. Okabe-Ito hues, readable
// on the light and the dark theme.
export type LightComponent = 'reflection' | 'refraction' | 'scattering';

export const COMPONENT_COLORS: Record<LightComponent, string> = {
  reflection: '#0072b2',
  refraction: '#e69f00',
  scattering: '#009e73',
};

/** Neither component (the full model's bar, an unknown name): a neutral grey. */
export const NEUTRAL_COLOR = '#7f7f7f';

export function componentColor(name: string | null | undefined): string {
  return name && name in COMPONENT_COLORS ? COMPONENT_COLORS[name as LightComponent] : NEUTRAL_COLOR;
}
