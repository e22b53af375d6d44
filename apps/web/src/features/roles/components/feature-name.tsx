import { Typography } from '@mui/material';

/** A feature's name over its description, as the permission screens list each module. */
export function FeatureName({ feature }: { feature: { name: string; description: string } }) {
  return (
    <>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {feature.name}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {feature.description}
      </Typography>
    </>
  );
}
