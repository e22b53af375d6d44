import { Card, CardContent, Grid, Typography } from '@mui/material';
import type { StatCard } from '@portal/shared';
import { formatStat } from './format';

export function StatCards({ stats }: { stats: StatCard[] }) {
  return (
    <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Statistics">
      {stats.map((card) => (
        <Grid key={card.key} size={{ xs: 12, sm: 6, md: 4, lg: stats.length > 3 ? 2 : 4 }} component="li">
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardContent>
              <Typography color="text.secondary" variant="body2" id={`stat-${card.key}`}>
                {card.label}
              </Typography>
              <Typography
                variant="h5"
                component="p"
                sx={{ fontWeight: 600, mt: 0.5 }}
                aria-labelledby={`stat-${card.key}`}
                data-stat={card.key}
              >
                {formatStat(card)}
              </Typography>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
