//! The full facts of one rich document, reviewed as a snapshot.

use doc_bridge_markdown::analyze;

const RICH_DOCUMENT: &str = r#"---
title: Deploying the Service
description: >
  How to build, configure and roll out the service
  to staging and production.
tags: deploy, ops , release
audience: [operators, developers]
owner: platform-team
covers:
  - crates/cli
  - deploy/*.yaml
checks: cargo test
locale: en-GB
country: NO
version: 2
draft: false
reviewers:
  - name: Ann
    since: 2023-04-01
---

# Deploying `doc-bridge`

[![CI](https://ci.example.com/badge.svg)](https://ci.example.com)

Deploys go through **staging** first; see [the runbook](../ops/Run%20Book.md#roll-back)
and the [config reference][config]. Questions go to <ops@example.com> or
https://chat.example.com/ops.

## Prerequisites

- A working `cargo` toolchain
- [x] Access to the [registry](https://registry.example.com)
  - nested note with ![diagram](img/flow%201.png "Flow")

```sh
cargo build --release
./deploy.sh staging
```

    indented code is skipped too

### Settings {#settings}

| Key | Meaning |
|-----|---------|
| `replicas` | Number of pods |
| `region` | Where it runs[^region] |

> [!WARNING]
> Never deploy on Fridays. <kbd>Ctrl</kbd>+<kbd>C</kbd> aborts.

<details>
<summary>Hidden HTML</summary>
This is an HTML block.
</details>

#### Deep heading is body only

Setext Heading
--------------

Back to [top](#deploying-doc-bridge) or [home](/index.md).

[config]: ./reference/config.md?plain=1
[^region]: Regions are listed in `regions.toml`.
"#;

#[test]
fn rich_document_facts() {
    insta::assert_json_snapshot!(analyze(RICH_DOCUMENT, "deploy"));
}
