import { useId, type CSSProperties } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { formatMonth, messages, type DashboardSeries } from '@portal/shared';
import { axisMonth, tickLabel, valueAxis } from './chart-axis';
import { visuallyHidden } from '../../../components/visually-hidden';
import { formatValue } from './format';

/** Width of the month labels ("Jun ’25", never wrapped) and room kept after the longest bar for its value. */
const LABEL_WIDTH = '4.25em';
const VALUE_ROOM = '7.5em';
/** A bar's length: its share of the axis, in the track less the room for the value. */
const barLength = `calc((100% - ${VALUE_ROOM}) * var(--share))`;

/**
 * A 12-month bar chart in HTML rather than a scaled SVG, so its text keeps the page's size on a
 * phone: one row per month (name, bar, value at the bar's end), oldest first, over a value axis.
 * Screen readers get the same figures as a table. With every month at zero it says so instead.
 */
export function MonthBarChart({ series }: { series: DashboardSeries }) {
  const titleId = useId();
  const points = series.points;
  const max = Math.max(0, ...points.map((p) => p.value));
  const axis = valueAxis(series.format, max);
  const share = (value: number) => Math.min(1, Math.max(0, value) / axis.top);

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" id={titleId} sx={{ mb: 1 }}>
          {series.title}
        </Typography>
        {max === 0 ? (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }} data-testid="chart-empty">
            {messages.dashboard.noChartData}
          </Typography>
        ) : (
          <Box role="img" aria-labelledby={titleId} sx={{ position: 'relative', fontSize: '0.875rem' }}>
            {/* Grid lines at the ticks, behind the bars. */}
            <Box
              aria-hidden
              sx={{ position: 'absolute', top: 0, bottom: '1.75em', left: LABEL_WIDTH, right: 0 }}
            >
              {axis.ticks.map((tick) => (
                <Box
                  key={tick}
                  style={{ '--share': share(tick) } as CSSProperties}
                  sx={{
                    position: 'absolute',
                    top: 0,
                    bottom: 0,
                    left: barLength,
                    borderLeft: 1,
                    borderColor: 'divider',
                  }}
                />
              ))}
            </Box>
            {points.map((p) => (
              <Box
                key={p.month}
                sx={{
                  display: 'grid',
                  gridTemplateColumns: `${LABEL_WIDTH} 1fr`,
                  alignItems: 'center',
                  minHeight: 28,
                  position: 'relative',
                }}
              >
                <Box
                  component="span"
                  sx={{ color: 'text.secondary', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                >
                  {axisMonth(p.month)}
                </Box>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, minWidth: 0 }}>
                  <Box
                    data-month={p.month}
                    style={{ '--share': share(p.value) } as CSSProperties}
                    sx={{
                      flex: 'none',
                      width: barLength,
                      minWidth: p.value > 0 ? 2 : 0,
                      height: 18,
                      bgcolor: 'primary.main',
                      borderRadius: '0 4px 4px 0',
                    }}
                  />
                  <Box component="span" sx={{ whiteSpace: 'nowrap', fontWeight: 600 }} data-value>
                    {formatValue(series.format, p.value)}
                  </Box>
                </Box>
              </Box>
            ))}
            {/* The value axis under the bars. */}
            <Box sx={{ display: 'grid', gridTemplateColumns: `${LABEL_WIDTH} 1fr`, height: '1.75em' }}>
              <span />
              {/* The labels take their own size; their box keeps the chart's, so `em` in barLength agrees. */}
              <Box sx={{ position: 'relative', color: 'text.secondary' }} data-axis>
                {axis.ticks.map((tick, i) => (
                  <Box
                    component="span"
                    key={tick}
                    style={{ '--share': share(tick) } as CSSProperties}
                    sx={{
                      position: 'absolute',
                      top: 4,
                      left: barLength,
                      transform: i === 0 ? 'none' : 'translateX(-50%)',
                      whiteSpace: 'nowrap',
                      fontSize: '0.75rem',
                    }}
                  >
                    {tickLabel(series.format, tick)}
                  </Box>
                ))}
              </Box>
            </Box>
          </Box>
        )}
        {/* A table grows to its content whatever its width, so the clipping box is a block around it. */}
        {max > 0 && (
          <Box sx={visuallyHidden}>
            <table>
              <caption>{series.title}</caption>
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {points.map((p) => (
                  <tr key={p.month}>
                    <th scope="row">{formatMonth(p.month)}</th>
                    <td>{formatValue(series.format, p.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
