export { positionsRoutes } from './positions.routes.js';
export {
  createPosition,
  getPosition,
  holdPositionTitles,
  positionsByTitles,
  updatePosition,
} from './positions.service.js';
