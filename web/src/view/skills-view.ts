import type { SkillCatalog } from 'ghostlight/skills';
import { h } from '../dom';

/** The skill catalog: each skill's name, description, allowed tools and location, then any diagnostics. */
export async function skillsView(catalog: SkillCatalog): Promise<HTMLElement> {
  const skills = await Promise.all(catalog.names.map(async (name) => ({ name, text: await catalog.format(name) })));
  return h(
    'div',
    { class: 'skills-view' },
    h('ul', { class: 'skill-list', 'aria-label': 'Skills' }, ...skills.map(({ name, text }) => h('li', { 'data-skill': name }, h('details', {}, h('summary', {}, h('strong', {}, name)), h('pre', { class: 'json', tabindex: 0, 'aria-label': `Skill ${name}` }, text))))),
    catalog.diagnostics.length > 0
      ? h('section', { 'aria-label': 'Skill diagnostics' }, h('h3', {}, 'Diagnostics'), h('ul', {}, ...catalog.diagnostics.map((diagnostic) => h('li', { class: diagnostic.severity }, `${diagnostic.severity}: ${diagnostic.message}`))))
      : h('p', { class: 'hint' }, 'Every skill loaded without warnings.'),
  );
}
