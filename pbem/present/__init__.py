"""Presentation: the words and view data that emails and pages share, tokens and links.

Layers: engine ← store ← service ← presentation ← mail out ← {mail in, web, scheduler}. This
package imports the engine and the store only; mail and web build on it.
"""
