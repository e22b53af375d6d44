import { useId } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import type { DashboardSeries } from '@portal/shared';
import { visuallyHidden } from '../../../components/visually-hidden';
import { formatMonth, formatShortMonth, formatValue } from './format';

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 16, right: 8, bottom: 28, left: 8 };

/**
 * A plain SVG bar chart, one bar per month. Screen readers get the same figures as a table; each
 * bar also carries its value as a tooltip (`<title>`).
 */
export function MonthBarChart({ series }: { series: DashboardSeries }) {
  const theme = useTheme();
  const titleId = useId();
  const points = series.points;
  const max = Math.max(0, ...points.map((p) => p.value));
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerWidth / Math.max(points.length, 1);
  const barWidth = slot * 0.6;

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" id={titleId} sx={{ mb: 1 }}>
          {series.title}
        </Typography>
        <Box
          component="svg"
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={titleId}
          sx={{ width: '100%', height: 'auto', display: 'block' }}
        >
          <line
            x1={PAD.left}
            x2={WIDTH - PAD.right}
            y1={HEIGHT - PAD.bottom}
            y2={HEIGHT - PAD.bottom}
            stroke={theme.palette.divider}
          />
          {points.map((p, i) => {
            const h = max === 0 ? 0 : (p.value / max) * innerHeight;
            const x = PAD.left + i * slot + (slot - barWidth) / 2;
            const y = HEIGHT - PAD.bottom - h;
            return (
              <g key={p.month}>
                <rect
                  x={x}
                  y={y}
                  width={barWidth}
                  height={Math.max(h, p.value > 0 ? 2 : 0)}
                  rx={3}
                  fill={theme.palette.primary.main}
                  data-month={p.month}
                >
                  <title>{`${formatMonth(p.month)}: ${formatValue(series.format, p.value)}`}</title>
                </rect>
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT - 8}
                  textAnchor="middle"
                  fontSize={12}
                  fill={theme.palette.text.secondary}
                >
                  {formatShortMonth(p.month)}
                </text>
              </g>
            );
          })}
        </Box>
        {/* A table grows to its content whatever its width, so the clipping box is a block around it. */}
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
      </CardContent>
    </Card>
  );
}
