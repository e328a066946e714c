<%@ WebService Language="C#" Class="Peers.RichService" %>
