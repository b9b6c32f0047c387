#pragma once
// Which benchmark targets a diff can reach, over the include graph.
// (Owned by the selection work: see issue 4.)
