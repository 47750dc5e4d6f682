import { describe, expect, it } from 'vitest';
import { parseFilterExpression } from '../../../renderer/ui-state/filter-expression';

describe('parseFilterExpression', () => {
  it('reads a kubectl label selector as typed', () => {
    const filter = parseFilterExpression('app=web,tier!=db');
    expect(filter.error).toBeUndefined();
    expect(filter.labelSelector?.toString()).toBe('app=web,tier!=db');
  });

  it('keeps set-based requirements with spaces together', () => {
    const filter = parseFilterExpression('env in (prod, staging) !canary');
    expect(filter.error).toBeUndefined();
    expect(filter.labelSelector?.matches({ env: 'prod' })).toBe(true);
    expect(filter.labelSelector?.matches({ env: 'prod', canary: 'yes' })).toBe(false);
    expect(filter.labelSelector?.matches({ env: 'dev' })).toBe(false);
  });

  it('takes ns=, node=, owner= and status= out of the selector', () => {
    const filter = parseFilterExpression(
      'app=web ns=payments ns=shop node=n-12 owner=web-7c9d8 status=Running',
    );
    expect(filter.namespaces).toEqual(['payments', 'shop']);
    expect(filter.node).toBe('n-12');
    expect(filter.owner).toBe('web-7c9d8');
    expect(filter.status).toBe('Running');
    expect(filter.labelSelector?.toString()).toBe('app=web');
  });

  it('reads ns!=, node!= and status!= as values to leave out, not as labels', () => {
    // As a label selector, `status!=Running` keeps every row (none has a label `status`): the filter
    // would silently show the running pods it was typed to hide.
    const filter = parseFilterExpression('app=web,status!=Running ns!=kube-system node!=n-1 namespace!=dev');
    expect(filter.without).toEqual({
      namespaces: ['kube-system', 'dev'],
      nodes: ['n-1'],
      statuses: ['Running'],
    });
    expect(filter.status).toBeUndefined();
    expect(filter.labelSelector?.toString()).toBe('app=web');
    expect(parseFilterExpression('status=Running').without).toBeUndefined();
  });

  it('reports owner!=, a negation without a value, and in or notin on a row field', () => {
    expect(parseFilterExpression('owner!=web').error?.message).toMatch(/^owner!= is not supported/);
    expect(parseFilterExpression('status!=').error?.message).toBe('status!= needs a value');
    // Sets of a row's own fields are not labels either: said, not read as a label selector.
    expect(parseFilterExpression('app=web,status notin (Running,Pending)').error?.message).toBe(
      'status notin (...) is not supported: type status!=value for each value to leave out',
    );
    expect(parseFilterExpression('ns in (a,b)').error?.message).toBe(
      'ns in (...) is not supported: type ns=value',
    );
    expect(parseFilterExpression('env notin (dev)').error).toBeUndefined();
  });

  it('treats a bare word as free text and a bare key in a comma list as exists', () => {
    expect(parseFilterExpression('checkout').text).toBe('checkout');
    const filter = parseFilterExpression('app,tier=db');
    expect(filter.text).toBeUndefined();
    expect(filter.labelSelector?.matches({ app: 'x', tier: 'db' })).toBe(true);
    expect(filter.labelSelector?.matches({ tier: 'db' })).toBe(false);
  });

  it('reports an invalid selector with the span to underline', () => {
    const typed = 'ns=default app in (web';
    const filter = parseFilterExpression(typed);
    expect(filter.error?.message).toBeTruthy();
    expect(filter.error!.start).toBeGreaterThanOrEqual(typed.indexOf('app'));
    expect(filter.error!.end).toBeLessThanOrEqual(typed.length + 1);
  });

  it('reports an index token without a value', () => {
    expect(parseFilterExpression('node=').error?.message).toBe('node= needs a value');
  });

  it('reads metrics comparisons in kubectl quantities beside other clauses', () => {
    const filter = parseFilterExpression('app=web cpu>250m mem<=1Gi web');
    expect(filter.metrics).toEqual([
      { unit: 'cpu', operator: '>', value: 0.25 },
      { unit: 'memory', operator: '<=', value: 2 ** 30 },
    ]);
    expect(filter.labelSelector?.matches({ app: 'web' })).toBe(true);
    expect(filter.text).toBe('web');
  });

  it('reports a metrics comparison without a quantity', () => {
    const filter = parseFilterExpression('cpu>lots');
    expect(filter.error).toEqual({ message: 'cpu> needs a quantity, e.g. 250m or 1Gi', start: 0, end: 8 });
    expect(filter.metrics).toBeUndefined();
  });

  it('selects everything for empty input', () => {
    const filter = parseFilterExpression('   ');
    expect(filter).toEqual({ namespaces: [] });
  });
});
