/** Time arithmetic shared by every layer of the core: saturating instead of overflowing. */
package dev.remedy.core.time;
