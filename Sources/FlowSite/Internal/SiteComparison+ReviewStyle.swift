extension SiteComparison {
    /// The review page's stylesheet, inline so the page is one file: the flow map's paint (as
    /// the site's stylesheet paints it) and the drawn diff's marks, each a shape or line style
    /// as well as a colour, in light and dark mode and on paper. Written in the CSS an HTML
    /// checker of 2020 knows (no logical properties, no `:has()`, no `color-scheme`: the page's
    /// `<meta name="color-scheme">` says it instead).
    static let reviewStyle = """
        :root {
          --bg: #f7f7f5;
          --surface: #ffffff;
          --fg: #1b1c20;
          --muted: #5a5d66;
          --border: #c9cbd2;
          --accent: #0a58b0;
          --focus: #b45309;
          --added: #1a7f37;
          --removed: #b42318;
          --changed: #8a4b00;
          --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
          --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #101217;
            --surface: #1a1d24;
            --fg: #e7e6e3;
            --muted: #a4a8b3;
            --border: #474c59;
            --accent: #8ab8ff;
            --focus: #fbbf24;
            --added: #56d364;
            --removed: #ff8f87;
            --changed: #f0b35a;
          }
        }
        @media print {
          :root {
            --bg: #ffffff;
            --surface: #ffffff;
            --fg: #000000;
            --muted: #333333;
            --border: #888888;
            --accent: #000000;
            --added: #000000;
            --removed: #000000;
            --changed: #000000;
          }
          .flow-map-scroll { overflow: visible; }
        }
        * { box-sizing: border-box; }
        html { background: var(--bg); color: var(--fg); font-family: var(--font); line-height: 1.5; }
        body { margin: 0; }
        main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
        h2 { font-size: 1.25rem; margin: 2rem 0 0.75rem; }
        a { color: var(--accent); }
        a:focus-visible, .flow-map-scroll:focus-visible, .table-scroll:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        code { font-family: var(--mono); font-size: 0.9em; overflow-wrap: anywhere; }
        .summary { font-size: 1.05rem; }
        .changes > li, .flow-changes li, details li { overflow-wrap: anywhere; }
        .changes > li { margin-bottom: 1rem; }
        .changes > li > p { margin: 0 0 0.25rem; font-weight: 600; }
        .changes ul { margin: 0; padding-left: 1.25rem; }
        .section { color: var(--muted); }
        del { color: var(--removed); text-decoration: line-through; }
        ins { color: var(--added); text-decoration: underline; }
        .table-scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
        th, td { text-align: left; padding: 0.35rem 0.6rem; border-bottom: 1px solid var(--border); vertical-align: top; }
        td { text-align: right; font-variant-numeric: tabular-nums; }
        thead th { color: var(--muted); font-weight: 600; }
        tr.unchanged th, tr.unchanged td { color: var(--muted); font-weight: 400; }
        tr:target th, tr:target td { background: var(--surface); outline: 2px solid var(--focus); }
        details { margin: 1rem 0; }
        summary { cursor: pointer; font-weight: 600; }

        .flow-map { margin: 1rem 0; }
        .flow-map-scroll { overflow-x: auto; border: 1px solid var(--border); border-radius: 0.6rem; background: var(--surface); padding: 0.5rem; }
        .flow-map figcaption { color: var(--muted); font-size: 0.9rem; margin-top: 0.5rem; }
        /* Graphviz sized the boxes with Helvetica's metrics: fonts with the same widths fit them. */
        .flow-graph { display: block; max-width: none; font-family: Helvetica, Arial, "Liberation Sans", sans-serif; }
        @media print, (min-width: 48rem) {
          .flow-graph { max-width: 100%; height: auto; }
        }
        .flow-graph text { fill: var(--fg); font-size: 14px; text-anchor: middle; }
        .flow-graph .kind text.detail { fill: var(--muted); font-size: 12px; }
        .flow-diff .kind rect { fill: var(--surface); stroke: var(--accent); stroke-width: 1.5; }
        .flow-diff .kind.context rect { fill: var(--bg); stroke: var(--border); }
        .flow-graph .kind.context text { fill: var(--muted); }
        .flow-graph a:focus { outline: none; }
        .flow-graph a:hover rect, .flow-graph a:focus-visible rect { stroke-width: 4; }
        .flow-graph a:focus-visible rect { stroke: var(--focus); }
        .flow-diff .transition path { fill: none; stroke: var(--muted); stroke-width: 1.5; }
        .flow-diff .transition path.arrow { fill: var(--muted); stroke: none; }
        .flow-graph .transition text { fill: var(--muted); font-size: 11px; }

        .flow-diff .kind.added rect { stroke: var(--added); stroke-width: 4.5; }
        .flow-diff .kind.removed rect { fill: none; stroke: var(--removed); stroke-width: 2; stroke-dasharray: 7 4; }
        .flow-graph .kind.removed text { text-decoration: line-through; }
        .flow-graph .kind.removed text.detail { text-decoration: none; }
        .flow-diff .kind.renamed rect { stroke: var(--changed); stroke-width: 2.5; stroke-dasharray: 12 3 2 3; }
        .flow-diff .kind.changed rect { stroke: var(--changed); stroke-width: 2.5; stroke-dasharray: 2 3; }
        .flow-graph .kind.added text.detail { fill: var(--added); font-weight: 700; }
        .flow-graph .kind.removed text.detail { fill: var(--removed); font-weight: 700; }
        .flow-graph .kind.renamed text.detail, .flow-graph .kind.changed text.detail { fill: var(--changed); font-weight: 700; }
        .flow-diff .transition.faded path { stroke: var(--border); }
        .flow-diff .transition.faded path.arrow { fill: var(--border); stroke: none; }
        .flow-diff .transition.added path { stroke: var(--added); stroke-width: 4; }
        .flow-diff .transition.removed path { stroke: var(--removed); stroke-width: 2; stroke-dasharray: 7 4; }
        .flow-diff .transition.changed path { stroke: var(--changed); stroke-width: 2.5; stroke-dasharray: 1.5 3.5; stroke-linecap: round; }
        .flow-diff .transition.added path.arrow { fill: var(--added); stroke: none; }
        .flow-diff .transition.removed path.arrow { fill: var(--removed); stroke: none; }
        .flow-diff .transition.changed path.arrow { fill: var(--changed); stroke: none; }
        .flow-graph .transition.added text { fill: var(--added); font-weight: 700; }
        .flow-graph .transition.removed text { fill: var(--removed); font-weight: 700; }
        .flow-graph .transition.changed text { fill: var(--changed); font-weight: 700; }
        .diff-legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; padding: 0; list-style: none; color: var(--muted); font-size: 0.9rem; }
        .diff-legend svg { vertical-align: middle; }

        """
}
