public enum _P {}
