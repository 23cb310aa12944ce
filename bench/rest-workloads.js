'use strict';
/** REST workloads for bench/run.js (GET, on the 1,000-article seed). */
module.exports = [
  { name: 'REST articles list, pageSize 10', path: '/api/articles?pagination[pageSize]=10' },
  { name: 'REST articles containsi + populate category', path: '/api/articles?filters[title][$containsi]=foo&populate=category' },
];
