"""What the symbolic backend's world model and planning share: frames, evidence, the artifact helper library
and its loader, the family switches and the role-model wrapper. Imports neither `worldmodel` nor `planning`."""
