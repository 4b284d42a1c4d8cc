import 'reflect-metadata';
import { container as root, type DependencyContainer } from 'tsyringe';
import { registerAdapters } from '../../infrastructure/register-adapters';

export type ContainerOverrides = (container: DependencyContainer) => void;

/** The CLI's composition root: production adapters, then any test overrides. */
export function buildCliContainer(overrides?: ContainerOverrides): DependencyContainer {
  const container = registerAdapters(root.createChildContainer());
  overrides?.(container);
  return container;
}
